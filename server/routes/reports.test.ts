// @vitest-environment node
// GET reports/affiliate/ (the reports of the caller's scope) and
// GET reports/affiliate/{id}/download/ (a real .xlsx file, 404 outside the scope).
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { affiliateReportListSchema } from '../../src/api/schemas.ts';
import type { Answer } from '../../tests/utils/api-calls.ts';
import { expectDetail, ids, NOT_FOUND, useContractApi } from '../../tests/utils/api-contract.ts';
import { API } from '../../tests/utils/api-server.ts';

const api = useContractApi();
const { get, verifiedPair } = api;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('GET reports/affiliate/', () => {
  it('answers a parent the reports of its tree, including both reports of one period', async () => {
    const answer = await get('reports/affiliate/', (await verifiedPair('parent')).access);
    expect(answer.status).toBe(200);
    const reports = affiliateReportListSchema.parse(answer.body);
    expect(reports.map((report) => report.id).sort()).toEqual([1, 2, 3, 4]);
    expect(reports.find((report) => report.id === 3)).toEqual({
      id: 3,
      report_date: '2026-12-16',
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      affiliate_id: 'P1',
      sales: 2,
      premium_collected: '100.00',
      commission: '10.00',
      connection_fees: '6.50',
    });
  });

  it('limits a child and another top-level affiliate to their own reports', async () => {
    expect(ids((await get('reports/affiliate/', (await verifiedPair('child')).access)).body)).toEqual([4]);
    expect(ids((await get('reports/affiliate/', (await verifiedPair('fresh')).access)).body)).toEqual([5]);
    expect(ids((await get('reports/affiliate/', (await verifiedPair('loner')).access)).body)).toEqual([]);
  });

  it('answers a superuser every report, or the impersonated affiliate’s', async () => {
    const { access } = await verifiedPair('admin');
    expect(ids((await get('reports/affiliate/', access)).body).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(ids((await get('reports/affiliate/', access, { impersonate_affiliate: 'T2' })).body)).toEqual([5]);
  });
});

describe('GET reports/affiliate/{id}/download/', () => {
  async function download(id: number | string, access: string): Promise<Answer> {
    return get(`reports/affiliate/${id}/download/`, access);
  }

  it('answers an .xlsx named report-{id}-{report_date}.xlsx that exceljs can read', async () => {
    const answer = await download(3, (await verifiedPair('parent')).access);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(XLSX_TYPE);
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="report-3-2026-12-16.xlsx"');
    expect(answer.body).toBeInstanceOf(ArrayBuffer);
    const workbook = await new ExcelJS.Workbook().xlsx.load(Buffer.from(answer.body as ArrayBuffer) as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'Sales', 'Connection Fees']);
    expect(workbook.getWorksheet('Summary')?.getCell('B1').value).toBe('Parent Travel');
    // P1's direct November sales under a header row: its own 101 (105 earns no referral fee) and
    // C1's and C2's sales (102, 103) it earned connection fees on; the fees on those two.
    expect(workbook.getWorksheet('Sales')?.rowCount).toBe(4);
    expect(workbook.getWorksheet('Connection Fees')?.rowCount).toBe(3);
  });

  it('lets a parent download a child’s report and a superuser any report', async () => {
    expect((await download(4, (await verifiedPair('parent')).access)).status).toBe(200);
    const admin = await verifiedPair('admin');
    expect((await download(5, admin.access)).headers.get('content-disposition')).toContain('report-5-2026-12-15.xlsx');
  });

  it('answers 404 for an unknown or malformed report id', async () => {
    const { access } = await verifiedPair('parent');
    expectDetail(await download(999, access), 404, NOT_FOUND);
    for (const id of ['abc', '1e0', '0x1', '1.0', '-1', '%201', '99999999999999999999']) {
      expectDetail(await download(id, access), 404, NOT_FOUND);
    }
  });

  it('answers 404 for a report out of scope', async () => {
    expectDetail(await download(2, (await verifiedPair('child')).access), 404, NOT_FOUND);
    expectDetail(await download(3, (await verifiedPair('fresh')).access), 404, NOT_FOUND);
    const admin = await verifiedPair('admin');
    const outside = await api.server.fetch(`${API}/reports/affiliate/5/download/?impersonate_affiliate=P1`, {
      headers: { Authorization: `Bearer ${admin.access}` },
    });
    expect(outside.status).toBe(404);
  });
});
