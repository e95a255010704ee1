// The sign-in screens' budget (issue: "the JS that /login downloads before the first code screen
// is at most 100 KB gzip"), measured on the production build the other e2e tests run against.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleReportFile, type BundleReport } from '../../build/bundle-report.ts';
import { DIST } from './portal.ts';

describe('the production bundle', () => {
  const report = JSON.parse(fs.readFileSync(bundleReportFile(path.resolve(DIST, '..')), 'utf8')) as BundleReport;

  it('keeps its report out of dist/, which is published as is', () => {
    expect(path.relative(DIST, bundleReportFile(path.resolve(DIST, '..')))).toMatch(/^\.\./);
    expect(fs.readdirSync(DIST, { recursive: true }).filter((file) => String(file).endsWith('bundle-report.json'))).toEqual([]);
  });

  it('keeps what /login downloads within 100 KB gzip', () => {
    expect(report.login.bytes).toBeGreaterThan(0);
    expect(report.login.bytes).toBeLessThanOrEqual(report.login.budget);
  });

  it('loads the charts, dates and decimals only with the screens that need them', () => {
    const loginCode = report.login.chunks.map((file) => fs.readFileSync(path.join(DIST, file), 'utf8')).join('\n');
    // Markers of @nivo/bar, luxon, bignumber.js and qrcode.react that survive minification.
    for (const marker of ['BigNumber', 'Luxon', 'nivo', 'qrcode']) expect(loginCode).not.toContain(marker);
  });
});
