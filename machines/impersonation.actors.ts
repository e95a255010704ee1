// Where the impersonation machine keeps the affiliate viewed as, so that a reload keeps it: in
// the tab's sessionStorage, with the username it was chosen by (src/domain/view-as-choice.ts),
// for as long as the signed-in session that runs the machine. Tests pass a keeper of their own.
import { fromCallback } from 'xstate';
import { TOKEN_STORAGE_KEY } from '../src/domain/auth-token.ts';
import { VIEW_AS_KEY, viewAsChoice } from '../src/domain/view-as-choice.ts';

export type KeeperEvent = { type: 'CHOICE'; affiliateId: string };

/**
 * Restores the tab's choice if the user signed in now made it (else the own view), keeps each new
 * choice, and forgets it as it stops: when the signed-in session ends. Where storage cannot be
 * used (a privacy mode), the choice lasts as long as the page.
 */
export const keepChoiceInTab = fromCallback<KeeperEvent>(({ sendBack, receive }) => {
  const user = () => (JSON.parse(localStorage.getItem(TOKEN_STORAGE_KEY) as string) as { username?: unknown } | null)?.username;
  const kept = (use: () => string | null | void) => {
    try {
      return use();
    } catch {
      return null; // storage unavailable or damaged: nothing kept
    }
  };
  sendBack({ type: 'IMPERSONATION.RESTORED', affiliateId: kept(() => viewAsChoice(sessionStorage.getItem(VIEW_AS_KEY), user())) ?? '' });
  receive((event) => kept(() => sessionStorage.setItem(VIEW_AS_KEY, JSON.stringify([user(), event.affiliateId]))));
  return () => kept(() => sessionStorage.removeItem(VIEW_AS_KEY));
});
