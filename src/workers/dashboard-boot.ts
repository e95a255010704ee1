// The calls of the session stored in this browser, which index.html's boot script hands to the
// dashboard's worker before the app's code has loaded (dashboard-start.ts). Run in the worker
// only: the page's start chunk must not wait for the modules it reads the token with.
import { parseClockOffset, refreshDueAt } from '../domain/server-clock.ts';
import { viewAsChoice } from '../domain/view-as-choice.ts';
import { DASHBOARD_ROUTE, isHome, routeAffiliate, viewQuery, type BootHandOff, type EarlyCalls } from './dashboard-start.ts';

/**
 * The calls for the session stored in this browser (`stored`, the token record as storage has
 * it, `clock` the server clock's offset kept beside it) on the page at `href`, viewing as the
 * affiliate the tab's choice (`viewAs`) names when the stored user made it, as the app will,
 * against the API at `baseUrl` (resolved against `href`). None off a dashboard route, and none
 * for an access token the app will not call with as it is: one it must refresh first, or garbage
 * in storage.
 */
export function bootCalls([stored, href, clock, viewAs]: BootHandOff, baseUrl: string, now = Date.now()): EarlyCalls | null {
  const page = new URL(href);
  if (!DASHBOARD_ROUTE.test(page.pathname)) return null;
  let access: unknown;
  let username: unknown;
  try {
    ({ access, username } = (JSON.parse(stored) as { access?: unknown; username?: unknown } | null) ?? {});
  } catch {
    return null;
  }
  // Due on the server's clock, as the app reads it (src/domain/server-clock.ts).
  if (typeof access !== 'string' || refreshDueAt(access) <= now + parseClockOffset(clock)) return null;
  return {
    baseUrl: new URL(baseUrl, page).href,
    token: access,
    impersonated: viewAsChoice(viewAs, username),
    range: viewQuery(page.search, new Date(now)),
    home: isHome(page.pathname),
    affiliate: routeAffiliate(page.pathname),
  };
}
