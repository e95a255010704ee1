// A superuser's choice of affiliate to view the portal as, kept for the tab in sessionStorage
// under "view_as" as ["username", "affiliateId"] ('' for the own view): what a reload reads back
// (machines/impersonation.actors.ts).

export const VIEW_AS_KEY = 'view_as';

/** The affiliate the stored choice views as, when `username` made it; null otherwise (the own view, or nothing readable). */
export function viewAsChoice(stored: string | null, username: unknown): string | null {
  try {
    const [chosenBy, affiliateId] = JSON.parse(stored ?? 'null') as [unknown, unknown];
    return chosenBy === username && typeof affiliateId === 'string' && affiliateId !== '' ? affiliateId : null;
  } catch {
    return null;
  }
}
