// Renders a view inside a real session: the auth machine with its real side effects, talking to
// the in-process reference API (tests/utils/api-server.ts), the token in the test window's
// localStorage and the dataLayer entries collected in an array. The session stops and
// localStorage is cleared when the test finishes.
import { render, screen, type RenderResult } from '@testing-library/react';
import { userEvent, type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { onTestFinished } from 'vitest';
import type { SimulatedClock } from 'xstate';
import { SessionProvider } from '../../src/session/session-context.tsx';
import { createSession, type Session } from '../../src/session/session.ts';
import { createTokenStorage } from '../../src/session/token-storage.ts';
import { loadQrCode as loadRealQrCode } from '../../src/features/auth/qr-code.tsx';
import { API, createTestServer, TEST_ORIGIN, type TestServer } from './api-server.ts';

export interface RenderWithSessionOptions {
  /** The API; by default a new empty test server whose clock reads the real time. */
  server?: TestServer;
  /** Where the token record lives; the test window's localStorage by default. */
  storage?: Storage;
  /** What draws the QR code; the real loader (qrcode.react) by default. */
  loadQrCode?: () => Promise<void>;
  /** The clock of the auth machine's delays (the resend wait); the real one by default. */
  clock?: SimulatedClock;
}

export interface RenderWithSessionResult extends RenderResult {
  session: Session;
  server: TestServer;
  /** What the session pushed to the dataLayer, in order. */
  dataLayer: Record<string, unknown>[];
  user: UserEvent;
}

export function renderWithSession(ui: ReactElement, options: RenderWithSessionOptions = {}): RenderWithSessionResult {
  const server = options.server ?? createTestServer({ now: Date.now() });
  const dataLayer: Record<string, unknown>[] = [];
  const session = createSession({
    baseUrl: `${API}/`,
    fetch: server.fetch,
    storage: createTokenStorage(options.storage ?? window.localStorage, window),
    track: (entry) => dataLayer.push(entry),
    loadQrCode: options.loadQrCode ?? loadRealQrCode,
    clock: options.clock,
  });
  session.start();
  onTestFinished(() => {
    session.stop();
    window.localStorage.clear();
  });
  const result = render(<SessionProvider session={session}>{ui}</SessionProvider>);
  return { ...result, session, server, dataLayer, user: userEvent.setup() };
}

/**
 * The server with a fetch the test steers, for faults the real API would not produce on demand:
 * `failNext(path)` makes the next call of a path fail as a network fault does (fetch rejects),
 * `failNext(path, { status: 500 })` answers it with that status and an HTML page instead, as a
 * failing upstream proxy would (the server never sees the call), and `hold(path)` keeps its calls
 * waiting until the returned release is called. Paths omit the API base ('2fa/totp/setup/').
 */
export function steerableServer(server: TestServer) {
  /** The faults still to come, per path, in order: a network fault, or an answer with a status. */
  const failures = new Map<string, (number | null)[]>();
  const holds = new Map<string, Promise<void>>();
  const pathOf = (input: RequestInfo | URL) =>
    new URL(typeof input === 'string' ? input : 'url' in input ? input.url : input.href, TEST_ORIGIN).pathname;

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const path = pathOf(input);
    const hold = holds.get(path);
    if (hold) await hold;
    const fault = failures.get(path)?.shift();
    if (fault === null) throw new TypeError('Failed to fetch');
    if (fault !== undefined) return proxyErrorPage(fault);
    return server.fetch(input, init);
  };

  return {
    server: { ...server, fetch } satisfies TestServer,
    /** The next `times` calls of `path` fail: as a network fault, or answered with `status`. */
    failNext(path: string, fault: number | { status?: number; times?: number } = 1) {
      const { status = null, times = 1 } = typeof fault === 'number' ? { times: fault } : fault;
      failures.set(
        `${API}/${path}`,
        Array.from({ length: times }, () => status),
      );
    },
    hold(path: string): () => void {
      let release = () => {};
      holds.set(
        `${API}/${path}`,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return () => {
        holds.delete(`${API}/${path}`);
        release();
      };
    },
  };
}

const statusTexts: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What a reverse proxy answers when the upstream fails: the status and an HTML page, not JSON. */
function proxyErrorPage(status: number): Response {
  const text = `${status} ${statusTexts[status] ?? 'Error'}`;
  return new Response(`<!DOCTYPE html>\n<html><head><title>${text}</title></head><body><h1>${text}</h1><hr><p>nginx</p></body></html>\n`, {
    status,
    statusText: statusTexts[status] ?? 'Error',
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
  });
}

/** Fills in the login form and presses Login. */
export async function submitLogin(user: UserEvent, credentials: { username: string; password: string }): Promise<void> {
  await user.type(screen.getByLabelText('Email or Username'), credentials.username);
  await user.type(screen.getByLabelText('Password'), credentials.password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}
