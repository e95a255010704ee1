// A Vite plugin that prints each JS chunk's gzip size after a production build, and the figure
// that matters first: the JS /login downloads before the first code screen (the entry chunk,
// everything it imports statically, and the scripts inline in index.html). Lazily loaded chunks
// (charts, QR code, dates) are not in it. Sizes are gzip at level 9 in KB of 1,000 bytes, the
// units the budget is set in. The figures are also written to build/bundle-report.json for the
// budget test: outside dist/, which is published as it is.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin, Rolldown } from 'vite';

type OutputChunk = Rolldown.OutputChunk;

/** 100 KB, a KB being 1,000 bytes. */
export const LOGIN_BUDGET_BYTES = 100_000;

export interface BundleReport {
  login: {
    /** Everything below, gzip -9. */
    bytes: number;
    budget: number;
    /** The entry chunk and its static imports. */
    chunks: string[];
    /** The scripts inline in index.html, gzip -9 each. */
    inlineScriptBytes: number;
  };
  totalJsBytes: number;
  chunks: { file: string; bytes: number; entry: boolean }[];
}

/** Where the build writes its report, given the project's root. */
export function bundleReportFile(projectRoot: string): string {
  return path.join(projectRoot, 'build', 'bundle-report.json');
}

export const gzipSize = (code: string | Uint8Array): number => gzipSync(code, { level: 9 }).length;

/** The contents of the classic scripts written inline in an HTML page. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes = '']) => !/\ssrc\s*=/i.test(attributes))
    .map(([, , body = '']) => body)
    .filter((body) => body.trim() !== '');
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

export function bundleReport(): Plugin {
  let reportFile = '';
  return {
    name: 'bundle-report',
    apply: 'build',
    configResolved(config) {
      reportFile = bundleReportFile(config.root);
    },
    // After every plugin has had its say (preload lists, the prerendered page): the files as written.
    writeBundle(_options, bundle) {
      const chunks = new Map<string, OutputChunk>();
      for (const item of Object.values(bundle)) if (item.type === 'chunk') chunks.set(item.fileName, item);
      const gzip = new Map([...chunks].map(([file, chunk]) => [file, gzipSize(chunk.code)]));

      const login = new Set<string>();
      const visit = (file: string) => {
        if (login.has(file)) return;
        login.add(file);
        chunks.get(file)?.imports.forEach(visit);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);

      const page = bundle['index.html'];
      const html = page?.type === 'asset' ? String(page.source) : '';
      const inlineScriptBytes = inlineScripts(html).reduce((sum, script) => sum + gzipSize(script), 0);
      const loginBytes = [...login].reduce((sum, file) => sum + (gzip.get(file) ?? 0), inlineScriptBytes);
      const totalJsBytes = [...gzip.values()].reduce((sum, bytes) => sum + bytes, inlineScriptBytes);
      const report: BundleReport = {
        login: { bytes: loginBytes, budget: LOGIN_BUDGET_BYTES, chunks: [...login], inlineScriptBytes },
        totalJsBytes,
        chunks: [...chunks.values()].map((chunk) => ({ file: chunk.fileName, bytes: gzip.get(chunk.fileName) ?? 0, entry: chunk.isEntry })),
      };
      fs.mkdirSync(path.dirname(reportFile), { recursive: true });
      fs.writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);

      const lines = [...report.chunks]
        .sort((a, b) => b.bytes - a.bytes)
        .map((chunk) => `  ${kb(chunk.bytes).padStart(9)}  ${chunk.file}${login.has(chunk.file) ? '  (/login)' : ''}`);
      if (inlineScriptBytes > 0) lines.push(`  ${kb(inlineScriptBytes).padStart(9)}  index.html, inline  (/login)`);
      const verdict = loginBytes <= LOGIN_BUDGET_BYTES ? 'within' : 'OVER';
      console.log(
        [
          '',
          'JavaScript, gzip -9 (1 KB = 1,000 bytes):',
          ...lines,
          `  /login downloads ${kb(loginBytes)} before the first code screen: ${verdict} the ${kb(LOGIN_BUDGET_BYTES)} budget`,
          `  all JavaScript: ${kb(totalJsBytes)}`,
          '',
        ].join('\n'),
      );
    },
  };
}
