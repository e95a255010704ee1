// The token refresh in words (see steps.ts). The machine runs beneath a signed-in session with
// nothing on screen of its own: its states are told by what the portal does (the refresh call it
// makes) and, once a refresh fails, by the login form the session ends on. A new state needs its
// words below; a new event its words in `does`.
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { TokenRefreshEvent } from '../../machines/token-refresh.ts';
import { ApiError, isUnauthorizedError } from '../../src/api/client.ts';
import { authTexts, REFRESH_CALL } from './auth-words.ts';
import { eventNote } from './paths.ts';
import { REFRESH_DELAY_EVENT, RETRY_DELAY_EVENT } from './token-refresh-paths.ts';
import { NoWordsError, q, w, type MachineWords, type Words } from './steps.ts';

const isUnreachable = (error: unknown) => error instanceof ApiError && error.kind === 'network';

const isOutcome = (event: EventObject) => event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.');

/** What shows, or what the portal does, in each state. */
function sees(state: AnyMachineSnapshot, event: EventObject): Words {
  if (state.matches('scheduled') || state.matches('checking'))
    return 'the portal stays signed in, its next refresh due 60 seconds before the access token expires';
  if (state.matches('refreshing')) return `the portal asks ${REFRESH_CALL} for a new token`;
  if (state.matches('waitingForConnection'))
    return `the portal stays signed in and calls ${REFRESH_CALL} again once the connection is back or the tab is shown again, else after a wait (1 s, doubling to at most 30 s)`;
  if (state.matches('failed')) {
    // The login form says the session ended; a failure other than a 401 (or no answer) also says why.
    const error = (event as { error?: unknown }).error;
    const said = error instanceof Error && !isUnauthorizedError(error) && !isUnreachable(error) ? [' and ', q(error.message)] : '';
    return [authTexts.loginHeading, ' shows, with ', authTexts.sessionEnded, said];
  }
  throw new NoWordsError(`no words for the token refresh's state ${JSON.stringify(state.value)} (tests/model/token-refresh-words.ts)`);
}

/** How each answer of the refresh call comes about, as the circumstance of the step. */
function arrangedBy(outcomes: readonly EventObject[]): Words[] {
  return outcomes.flatMap((outcome): Words[] => {
    if (outcome.type === 'xstate.done.actor.refresh') {
      const { refresh } = (outcome as unknown as { output: { refresh?: string } }).output;
      return refresh === undefined ? [`while the server answers ${REFRESH_CALL} with a new access token and no new refresh token`] : [];
    }
    const { error } = outcome as { error?: unknown };
    if (error instanceof ApiError && error.kind === 'network') return [`with the connection lost as ${REFRESH_CALL} is called`];
    if (error instanceof ApiError && error.status !== null) return [`while the server answers ${REFRESH_CALL} with HTTP ${error.status}`];
    throw new NoWordsError(`no real way for ${REFRESH_CALL} to fail with ${String(error)}`);
  });
}

/** What happens to the session for each event. */
function does(event: EventObject, _from: AnyMachineSnapshot, outcomes: readonly EventObject[]): Words {
  const action = ((): Words => {
    if (event.type === REFRESH_DELAY_EVENT) return 'wait until 60 seconds before the access token expires';
    if (event.type === RETRY_DELAY_EVENT) return 'wait for the next try';
    const refreshEvent = event as TokenRefreshEvent;
    switch (refreshEvent.type) {
      case 'REFRESH.REQUEST':
        return 'do something that asks the server while it refuses the access token (HTTP 401)';
      case 'TOKEN.UPDATED':
        // The sample's note says how long its token has left ('another tab: 30 s left').
        return `in another tab of this browser, sign in again (its access token with ${eventNote(event).replace(/^another tab: /, '')})`;
      case 'CONNECTION.BACK':
        return 'bring the connection back (or show the tab again)';
    }
    throw new NoWordsError(`no words for the event ${event.type}`);
  })();
  const circumstances = arrangedBy(outcomes);
  return circumstances.length === 0
    ? action
    : [action, ', ', ...circumstances.flatMap((words, index) => (index === 0 ? [words] : [' and ', words]))];
}

export const tokenRefreshWords: MachineWords = {
  isOutcome,
  opening: () => 'sign in (the access token has 10 minutes left), and stay on a page of the portal',
  screen: () => w`the portal`,
  sees,
  does,
};
