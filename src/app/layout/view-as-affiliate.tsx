// The header's 'View as Affiliate' selector, for superusers only (see docs/product-rules.md, Who
// sees what), and the 'Viewing as {name}' line with a way back to the own view. Loaded lazily: it
// fetches with SWR, which the sign-in screens never need.
import { useId, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { affiliateListErrors, useOwnAffiliates } from '../../api/affiliates.ts';
import { ServerDataProvider, useImpersonatedAffiliate } from '../../session/server-data.tsx';
import { useSession } from '../../session/session-context.tsx';

function ViewAsSelector() {
  const session = useSession();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const id = useId();
  const select = useRef<HTMLSelectElement>(null);
  const selected = useImpersonatedAffiliate();
  const { data: affiliates, error } = useOwnAffiliates(session.client, true);
  const name = affiliates?.find((affiliate) => affiliate.id === selected)?.name ?? selected;

  const choose = (affiliateId: string) => {
    session.impersonation()?.send({ type: 'IMPERSONATION.SELECT', affiliateId });
    // The user stays on their tab; only an affiliate's dashboard, whose affiliate may not be in
    // the new view, goes back to the dashboard of all affiliates, in the same view but the day
    // (the query of src/domain/view-query.ts).
    if (location.startsWith('/affiliate/')) {
      const query = new URLSearchParams(search);
      query.delete('day');
      navigate(query.size > 0 ? `/?${query}` : '/');
    }
  };

  return (
    <div className="view-as">
      <div className="view-as__field">
        <label htmlFor={id}>View as Affiliate</label>
        <select
          ref={select}
          id={id}
          value={selected ?? ''}
          onChange={(event) => choose(event.target.value)}
          disabled={!affiliates && !error}
        >
          <option value="">{error ? affiliateListErrors.selector : 'Own view (all affiliates)'}</option>
          {affiliates?.map((affiliate) => (
            <option key={affiliate.id} value={affiliate.id}>
              {affiliate.name}
            </option>
          ))}
        </select>
      </div>
      {selected !== null && (
        <p className="view-as__notice">
          <span>Viewing as {name}</span>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              // The button goes with the notice: focus goes to the selector it reset.
              choose('');
              select.current?.focus();
            }}
          >
            Stop viewing as {name}
          </button>
        </p>
      )}
    </div>
  );
}

export default function ViewAsAffiliate() {
  return (
    <ServerDataProvider>
      <ViewAsSelector />
    </ServerDataProvider>
  );
}
