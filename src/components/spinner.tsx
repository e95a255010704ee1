// A busy indicator: a live status region with visible text ('Signing in...'), never an icon alone.
import './components.css';

export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" className="spinner-status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}
