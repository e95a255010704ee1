// GET reports/affiliate/ and the report download, a spreadsheet saved as report-{id}-{report_date}.xlsx.
import useSWR from 'swr';
import type { ApiClient, ApiScope } from './client.ts';
import { affiliateReportListSchema, type AffiliateReport } from './schemas.ts';

export function fetchReports(client: ApiClient, signal?: AbortSignal): Promise<AffiliateReport[]> {
  return client.request('reports/affiliate/', { schema: affiliateReportListSchema, signal });
}

export function reportFileName(report: Pick<AffiliateReport, 'id' | 'report_date'>): string {
  return `report-${report.id}-${report.report_date}.xlsx`;
}

export function downloadReport(client: ApiClient, reportId: number, signal?: AbortSignal): Promise<Blob> {
  return client.blob(`reports/affiliate/${reportId}/download/`, { signal });
}

/** The reports the user (or the affiliate viewed as) may see, cached per impersonated affiliate. */
export function useReports({ client, impersonated }: ApiScope) {
  return useSWR<AffiliateReport[], Error>(['reports', impersonated], () => fetchReports(client));
}
