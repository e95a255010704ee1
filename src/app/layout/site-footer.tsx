// The footer of every page: a copyright with the current year.
import { useSyncExternalStore } from 'react';

export const COMPANY_NAME = 'Example Travel Insurance';

const noUpdates = () => () => {};
const currentYear = () => new Date().getFullYear();
// The page prerendered at build time says the build's year: the app takes that markup over as it
// is, then shows the current year (they differ once a build outlives its year).
const buildYear = () => __BUILD_YEAR__;

export function SiteFooter() {
  const year = useSyncExternalStore(noUpdates, currentYear, buildYear);
  return (
    <footer className="app-footer">
      <div className="container">
        <p>
          © {year} {COMPANY_NAME}
        </p>
      </div>
    </footer>
  );
}
