// The token refresh (token-refresh.ts) as the auth machine's child, its code loaded (`load`) once a
// session is signed in: the login page does without it. The machine runs inside this actor: what the auth
// machine sends it waits until the code is in, and what it tells (its notify action) is handed on.
// Code that cannot load (offline) is asked for again, 1 s doubling to at most 30 s, while the actor
// runs.
import { createActor, fromCallback, type AnyActorRef, type AnyStateMachine } from 'xstate';
import type { TokenPair } from '../src/api/schemas.ts';
import { retryDelay } from '../src/domain/retry-policy.ts';
import type { tokenRefreshMachine, TokenRefreshEvent, TokenRefreshParentEvent } from './token-refresh.ts';

type Notify = (notice: TokenRefreshParentEvent) => void;

/** `load` brings the machine's code; `provide` gives the machine its actors, and the notify it is handed. */
export const loadedTokenRefresh = (
  load: () => Promise<typeof tokenRefreshMachine>,
  provide: (machine: typeof tokenRefreshMachine, notify: Notify) => AnyStateMachine,
) =>
  fromCallback<TokenRefreshEvent, { tokens: TokenPair }>(({ input, receive, sendBack }) => {
    let child: AnyActorRef | undefined;
    let stopped = false;
    const waiting: TokenRefreshEvent[] = [];
    receive((event) => {
      if (child) child.send(event);
      else waiting.push(event);
    });
    const start = (attempt: number) =>
      load().then(
        (machine) => {
          if (stopped) return;
          child = createActor(provide(machine, sendBack), { input }).start();
          for (const event of waiting.splice(0)) child.send(event);
        },
        () => !stopped && setTimeout(() => void start(attempt + 1), retryDelay(attempt)),
      );
    void start(1);
    return () => {
      stopped = true;
      child?.stop();
    };
  });
