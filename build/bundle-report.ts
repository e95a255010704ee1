// A Vite plugin that prints each JS chunk's gzip size after a production build, and the figure
// that matters first: the JS /login downloads before the first code screen (the entry chunk and
// everything it imports statically). Lazily loaded chunks (charts, QR code, dates) are not in it.
// The figures are also written to build/bundle-report.json for the budget test: outside dist/,
// which is published as it is.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Rolldown, Plugin } from 'vite';

type OutputChunk = Rolldown.OutputChunk;

export const LOGIN_BUDGET_BYTES = 100 * 1024;

export interface BundleReport {
  login: { bytes: number; budget: number; chunks: string[] };
  totalJsBytes: number;
  chunks: { file: string; bytes: number; entry: boolean }[];
}

/** Where the build writes its report, given the project's root. */
export function bundleReportFile(projectRoot: string): string {
  return path.join(projectRoot, 'build', 'bundle-report.json');
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function bundleReport(): Plugin {
  let reportFile = '';
  return {
    name: 'bundle-report',
    apply: 'build',
    configResolved(config) {
      reportFile = bundleReportFile(config.root);
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, OutputChunk>();
      for (const item of Object.values(bundle)) if (item.type === 'chunk') chunks.set(item.fileName, item);
      const gzip = new Map([...chunks].map(([file, chunk]) => [file, gzipSync(chunk.code).length]));

      const login = new Set<string>();
      const visit = (file: string) => {
        if (login.has(file)) return;
        login.add(file);
        chunks.get(file)?.imports.forEach(visit);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);

      const loginBytes = [...login].reduce((sum, file) => sum + (gzip.get(file) ?? 0), 0);
      const totalJsBytes = [...gzip.values()].reduce((sum, bytes) => sum + bytes, 0);
      const report: BundleReport = {
        login: { bytes: loginBytes, budget: LOGIN_BUDGET_BYTES, chunks: [...login] },
        totalJsBytes,
        chunks: [...chunks.values()].map((chunk) => ({ file: chunk.fileName, bytes: gzip.get(chunk.fileName) ?? 0, entry: chunk.isEntry })),
      };
      fs.mkdirSync(path.dirname(reportFile), { recursive: true });
      fs.writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);

      const lines = [...report.chunks]
        .sort((a, b) => b.bytes - a.bytes)
        .map((chunk) => `  ${kb(chunk.bytes).padStart(9)}  ${chunk.file}${login.has(chunk.file) ? '  (/login)' : ''}`);
      const verdict = loginBytes <= LOGIN_BUDGET_BYTES ? 'within' : 'OVER';
      console.log(
        [
          '',
          'JavaScript, gzip:',
          ...lines,
          `  /login downloads ${kb(loginBytes)} before the first code screen: ${verdict} the ${kb(LOGIN_BUDGET_BYTES)} budget`,
          `  all JavaScript: ${kb(totalJsBytes)}`,
          '',
        ].join('\n'),
      );
    },
  };
}
