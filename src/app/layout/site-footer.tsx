// The footer of every page: a copyright with the current year.
export const COMPANY_NAME = 'Example Travel Insurance';

export function SiteFooter() {
  return (
    <footer className="app-footer">
      <div className="container">
        <p>
          © {new Date().getFullYear()} {COMPANY_NAME}
        </p>
      </div>
    </footer>
  );
}
