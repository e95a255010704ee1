// GET reports/affiliate/ (reports of the request's scope) and
// GET reports/affiliate/{id}/download/ (the report as a real .xlsx file).
import { Hono } from 'hono';
import { requireAuth, scopeFilter } from '../auth.ts';
import type { AppEnv, ServerContext } from '../context.ts';
import { detail, messages } from '../http.ts';
import { buildReportWorkbook, type ReportRow } from '../report-file.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function reportRoutes(ctx: ServerContext) {
  const app = new Hono<AppEnv>();
  app.use('/reports/*', requireAuth(ctx, { verified: true }));

  app.get('/reports/affiliate/', (c) => {
    const scope = scopeFilter(c.get('scope'), 'affiliate_id');
    const rows = ctx.db
      .prepare<unknown[], ReportRow>(`SELECT * FROM reports WHERE ${scope.sql} ORDER BY start_date DESC, id DESC`)
      .all(...scope.params);
    return c.json(rows);
  });

  app.get('/reports/affiliate/:id/download/', async (c) => {
    // Digits only, like Django's <int:pk>: Number() would also read '1e0', '0x1' or ' 1' as 1.
    const id = /^\d+$/.test(c.req.param('id')) ? Number(c.req.param('id')) : Number.NaN;
    const scope = scopeFilter(c.get('scope'), 'affiliate_id');
    const report = Number.isSafeInteger(id)
      ? ctx.db.prepare<unknown[], ReportRow>(`SELECT * FROM reports WHERE id = ? AND ${scope.sql}`).get(id, ...scope.params)
      : undefined;
    if (!report) throw detail(404, messages.notFound);
    return c.body(new Uint8Array(await buildReportWorkbook(ctx.db, report)), 200, {
      'Content-Type': XLSX_TYPE,
      'Content-Disposition': `attachment; filename="report-${report.id}-${report.report_date}.xlsx"`,
    });
  });

  return app;
}
