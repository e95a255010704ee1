// The application shell. Routes and screens arrive with the sign-in flow; until then the shell
// shows the login screen's title and nothing that pretends to work.
const productName = 'Affiliate Portal';
const companyName = 'Example Travel Insurance';

export function App() {
  return (
    <div className="app">
      <header className="app-header">
        <div className="container">
          <span className="app-header__product">{productName}</span>
        </div>
      </header>
      <main className="app-main container">
        <h1>Affiliate Login</h1>
      </main>
      <footer className="app-footer">
        <div className="container">
          <p>
            © {new Date().getFullYear()} {companyName}
          </p>
        </div>
      </footer>
    </div>
  );
}
