// The tab's title names the page on screen ('Reports – Affiliate Portal'), so that history, tab
// lists and screen readers can tell the portal's pages apart; the page's own title
// ('Affiliate Portal', index.html's) comes back when it goes.
import { useEffect } from 'react';

export const PORTAL_TITLE = 'Affiliate Portal';

export function useDocumentTitle(page: string): void {
  useEffect(() => {
    const before = document.title;
    document.title = `${page} – ${PORTAL_TITLE}`;
    return () => {
      document.title = before;
    };
  }, [page]);
}
