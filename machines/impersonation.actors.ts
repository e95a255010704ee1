// Where the impersonation machine keeps the affiliate viewed as, so that a reload keeps it: in
// the tab's sessionStorage, with the username it was chosen by, for as long as the signed-in
// session that runs the machine. Tests pass a keeper of their own.
import { fromCallback } from 'xstate';
import { TOKEN_STORAGE_KEY } from '../src/domain/auth-token.ts';

/** sessionStorage: the tab's choice, `["username","affiliateId"]`. */
export const VIEW_AS_KEY = 'view_as';

export type KeeperEvent = { type: 'CHOICE'; affiliateId: string };

/**
 * Restores the tab's choice if the user signed in now made it (else the own view), keeps each new
 * choice, and forgets it as it stops: when the signed-in session ends. Where storage cannot be
 * used (a privacy mode), the choice lasts as long as the page.
 */
export const keepChoiceInTab = fromCallback<KeeperEvent>(({ sendBack, receive }) => {
  const user = () => (JSON.parse(localStorage.getItem(TOKEN_STORAGE_KEY) as string) as { username: string }).username;
  let affiliateId = '';
  try {
    const [chosenBy, chosen] = JSON.parse(sessionStorage.getItem(VIEW_AS_KEY) as string) as [string, string];
    if (chosenBy === user() && typeof chosen === 'string') affiliateId = chosen;
  } catch {
    // nothing kept, or not readable: the own view
  }
  sendBack({ type: 'IMPERSONATION.RESTORED', affiliateId });
  receive((event) => {
    try {
      sessionStorage.setItem(VIEW_AS_KEY, JSON.stringify([user(), event.affiliateId]));
    } catch {
      // kept for the page only
    }
  });
  return () => {
    try {
      sessionStorage.removeItem(VIEW_AS_KEY);
    } catch {
      // nothing was kept
    }
  };
});
