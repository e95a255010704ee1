// The header's 'View as Affiliate' control, for superusers only (see docs/product-rules.md, Who
// sees what): a searchable combobox of every affiliate (by name or id, each with its parents),
// the user's recent choices first; and the 'Viewing as {name}' line with a way back to the own
// view. Loaded lazily: it fetches with SWR, which the sign-in screens never need.
import { useMemo, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { affiliateListErrors, useOwnAffiliates } from '../../api/affiliates.ts';
import { affiliateOptions } from '../../components/affiliate-options.ts';
import { Combobox } from '../../components/combobox.tsx';
import { ServerDataProvider, useImpersonatedAffiliate } from '../../session/server-data.tsx';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { readRecentChoices, rememberRecentChoice } from './recent-choices.ts';

const OWN_VIEW_OPTION = 'Own view (all affiliates)';

const usernameOf = (snapshot: { context: { token: { username: string } | null } }) => snapshot.context.token?.username ?? '';

function ViewAsSelector() {
  const session = useSession();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const input = useRef<HTMLInputElement>(null);
  const selected = useImpersonatedAffiliate();
  const username = useAuthSelector(usernameOf);
  const [recent, setRecent] = useState(() => readRecentChoices(window.localStorage, username));
  const { data: affiliates, error } = useOwnAffiliates(session.client, true);
  const name = affiliates?.find((affiliate) => affiliate.id === selected)?.name ?? selected;
  const options = useMemo(
    () =>
      affiliateOptions(affiliates ?? [], { first: { value: '', label: error ? affiliateListErrors.selector : OWN_VIEW_OPTION }, recent }),
    [affiliates, error, recent],
  );

  const choose = (affiliateId: string) => {
    session.impersonation()?.send({ type: 'IMPERSONATION.SELECT', affiliateId });
    if (affiliateId !== '') {
      setRecent(rememberRecentChoice(window.localStorage, username, affiliateId));
    }
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
      <Combobox
        className="view-as__field"
        label="View as Affiliate"
        options={options}
        value={selected ?? ''}
        onChange={choose}
        disabled={!affiliates && !error}
        inputRef={input}
      />
      {selected !== null && (
        <p className="view-as__notice">
          <span>Viewing as {name}</span>
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              // The button goes with the notice: focus goes to the control it reset.
              choose('');
              input.current?.focus();
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
