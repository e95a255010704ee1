// Invite registration: the invite lookup, the form's own rules as the machine applies them, the
// server's answers, and what success stores.
import { describe, expect, it } from 'vitest';
import { createActor, waitFor, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ApiError, messages } from '../src/api/client.ts';
import { INVITE_NOT_FOUND } from '../src/api/invites.ts';
import type { RegistrationRequest } from '../src/api/request-schemas.ts';
import type { Invite, RegistrationResponse } from '../src/api/schemas.ts';
import type { StoredToken } from '../src/domain/auth-token.ts';
import { startTestActor } from '../tests/utils/test-actor.ts';
import { makeTokenPair, partialClaims } from '../tests/utils/tokens.ts';
import { provideInviteRegistration } from './invite-registration.actors.ts';
import type { RegistrationForm } from '../src/domain/registration.ts';
import { inviteRegistrationMachine, registrationErrors, selectIsPending } from './invite-registration.ts';

type Snapshot = SnapshotFrom<typeof inviteRegistrationMachine>;

const pending = <T>() => new Promise<T>(() => {});
const invite: Invite = { affiliate: { name: 'Child Two' } };
const tokens = makeTokenPair({ user_id: 9, username: 'new@fixtures.example', ...partialClaims(null) });
const registered: RegistrationResponse = { user: { username: 'new@fixtures.example' }, tokens };
const complete: RegistrationForm = { email: 'new@fixtures.example', password: 'correct-horse-1', confirmPassword: 'correct-horse-1' };
const badRequest = (body: Record<string, string | string[]>) => new ApiError(messages.httpError(400, 'Bad Request'), 'http', 400, body);

interface Started {
  actor: ActorRefFrom<typeof inviteRegistrationMachine>;
  lookups: string[];
  registrations: RegistrationRequest[];
  stored: StoredToken[];
  /** Every action the page provides, in the order the machine ran them. */
  effects: string[];
  until(predicate: (snapshot: Snapshot) => boolean): Promise<Snapshot>;
}

function start(
  options: { lookup?: () => Promise<Invite>; register?: (registration: RegistrationRequest) => Promise<RegistrationResponse> } = {},
): Started {
  const lookups: string[] = [];
  const registrations: RegistrationRequest[] = [];
  const stored: StoredToken[] = [];
  const effects: string[] = [];
  const machine = provideInviteRegistration({
    api: {
      getInvite: (inviteId) => {
        lookups.push(inviteId);
        return (options.lookup ?? (() => Promise.resolve(invite)))();
      },
      register: (registration) => {
        registrations.push(registration);
        return (options.register ?? (() => pending<RegistrationResponse>()))(registration);
      },
    },
    storeSession: (token) => {
      stored.push(token);
      effects.push('storeSession');
    },
    goHome: () => void effects.push('goHome'),
  });
  return { ...startTestActor(machine, { input: { inviteId: 'invite-1' } }), lookups, registrations, stored, effects };
}

async function atForm(options: Parameters<typeof start>[0] = {}) {
  const started = start(options);
  await started.until((snapshot) => snapshot.matches('form'));
  return started;
}

const submit = (started: Started, form: Partial<RegistrationForm> = {}) =>
  started.actor.send({ type: 'REGISTRATION.SUBMIT', ...complete, ...form });

describe('the invite lookup', () => {
  it("'A validating spinner first': validating is pending and looks the route's invite up", () => {
    const { actor, lookups } = start({ lookup: () => pending() });
    expect(actor.getSnapshot().value).toBe('validating');
    expect(selectIsPending(actor.getSnapshot())).toBe(true);
    expect(lookups).toEqual(['invite-1']);
  });

  it("'a Join form showing the affiliate's name': the form knows the inviting affiliate", async () => {
    const { actor } = await atForm();
    const snapshot = actor.getSnapshot();
    expect(snapshot.context.affiliateName).toBe('Child Two');
    expect(selectIsPending(snapshot)).toBe(false);
    expect(snapshot.context.fieldErrors).toEqual({});
    expect(snapshot.context.error).toBeNull();
  });

  it("'404 -> The invite link appears to be invalid or expired.': Invalid Invite with that message", async () => {
    const { until } = start({ lookup: () => Promise.reject(new ApiError(INVITE_NOT_FOUND, 'http', 404)) });
    const snapshot = await until((s) => s.matches('invalid'));
    expect(snapshot.context.error).toBe('The invite link appears to be invalid or expired.');
    expect(snapshot.status).toBe('done');
  });

  it("'other errors use the error field or HTTP Error: {status}': the lookup's message, and Retry looks again", async () => {
    let calls = 0;
    const { until, actor } = start({
      lookup: () => (++calls === 1 ? Promise.reject(new ApiError(messages.network, 'network')) : Promise.resolve(invite)),
    });
    const failed = await until((s) => s.matches('unavailable'));
    expect(failed.context.error).toBe(messages.network);
    expect(selectIsPending(failed)).toBe(false);
    expect(failed.status).toBe('active');

    actor.send({ type: 'INVITE.RETRY' });
    expect(selectIsPending(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    const found = await until((s) => s.matches('form'));
    expect(found.context.affiliateName).toBe('Child Two');
    expect(calls).toBe(2);
  });
});

describe('the client rules, checked before anything is sent', () => {
  it("'Email required ('Email is required')'", async () => {
    const started = await atForm();
    submit(started, { email: '' });
    expect(started.actor.getSnapshot().value).toBe('form');
    expect(started.actor.getSnapshot().context.fieldErrors).toEqual({ email: 'Email is required' });
    expect(started.registrations).toEqual([]);
  });

  it("'Password required ('Password is required')'", async () => {
    const started = await atForm();
    submit(started, { password: '', confirmPassword: '' });
    expect(started.actor.getSnapshot().context.fieldErrors).toEqual({ password: 'Password is required' });
    expect(started.registrations).toEqual([]);
  });

  it("'passwords must match ('Passwords don't match')', shown on Confirm Password", async () => {
    const started = await atForm();
    submit(started, { confirmPassword: 'correct-horse-2' });
    expect(started.actor.getSnapshot().context.fieldErrors).toEqual({ confirmPassword: "Passwords don't match" });
    expect(started.registrations).toEqual([]);
  });

  it('a corrected form replaces the old messages and is sent', async () => {
    const started = await atForm();
    submit(started, { email: '' });
    submit(started);
    const snapshot = started.actor.getSnapshot();
    expect(snapshot.value).toBe('submitting');
    expect(selectIsPending(snapshot)).toBe(true);
    expect(snapshot.context.fieldErrors).toEqual({});
  });
});

describe('registering', () => {
  it("'Registration payload: email, password, invite_id; confirm password is checked only on the client'", async () => {
    const started = await atForm();
    submit(started, { email: '  new@fixtures.example ' });
    expect(started.registrations).toEqual([{ email: 'new@fixtures.example', password: 'correct-horse-1', invite_id: 'invite-1' }]);
  });

  it('ignores another submit while the account is being created', async () => {
    const started = await atForm();
    submit(started);
    expect(started.actor.getSnapshot().can({ type: 'REGISTRATION.SUBMIT', ...complete })).toBe(false);
    submit(started);
    expect(started.registrations).toHaveLength(1);
  });

  it("'success (token stored locally, go to /)': stores username and tokens, then goes home", async () => {
    const started = await atForm({ register: () => Promise.resolve(registered) });
    submit(started);
    const snapshot = await started.until((s) => s.matches('success'));
    expect(snapshot.status).toBe('done');
    expect(started.stored).toEqual([{ username: 'new@fixtures.example', access: tokens.access, refresh: tokens.refresh }]);
    expect(started.effects).toEqual(['storeSession', 'goHome']);
  });

  it("'Server field errors are shown per field (joined by comma)'", async () => {
    const started = await atForm({
      register: () =>
        Promise.reject(
          badRequest({
            email: ['Enter a valid email address.', 'A user with that email already exists.'],
            password: ['This password is too short. It must contain at least 8 characters.'],
          }),
        ),
    });
    submit(started);
    const snapshot = await started.until((s) => s.matches('form'));
    expect(snapshot.context.fieldErrors).toEqual({
      email: 'Enter a valid email address., A user with that email already exists.',
      password: 'This password is too short. It must contain at least 8 characters.',
    });
    expect(snapshot.context.error).toBeNull();
    expect(started.effects).toEqual([]);
  });

  it("'non_field_errors shown as a general error'", async () => {
    const started = await atForm({
      register: () => Promise.reject(badRequest({ non_field_errors: ['This invite is invalid or has expired.'] })),
    });
    submit(started);
    const snapshot = await started.until((s) => s.matches('form'));
    expect(snapshot.context.fieldErrors).toEqual({});
    expect(snapshot.context.error).toBe('This invite is invalid or has expired.');
  });

  it('other failures are a general error with their message', async () => {
    const started = await atForm({
      register: () => Promise.reject(new ApiError(messages.httpError(500, 'Internal Server Error'), 'http', 500)),
    });
    submit(started);
    const snapshot = await started.until((s) => s.matches('form'));
    expect(snapshot.context.fieldErrors).toEqual({});
    expect(snapshot.context.error).toBe('HTTP Error: 500: Internal Server Error');
  });

  it('a 400 with fields the form does not have shows them as the general error, after non_field_errors', () => {
    expect(registrationErrors(badRequest({ invite_id: ['This field may not be blank.'], non_field_errors: ['No.'] }))).toEqual({
      fieldErrors: {},
      error: 'No., This field may not be blank.',
    });
    expect(registrationErrors(badRequest({}))).toEqual({ fieldErrors: {}, error: 'HTTP Error: 400: Bad Request' });
    expect(registrationErrors(new TypeError('Failed to fetch'))).toEqual({ fieldErrors: {}, error: 'Failed to fetch' });
  });

  it('a new submit clears the server messages of the last attempt', async () => {
    let attempt = 0;
    const started = await atForm({
      register: () => (attempt++ === 0 ? Promise.reject(badRequest({ non_field_errors: ['Try again.'] })) : pending()),
    });
    submit(started);
    await started.until((s) => s.matches('form') && s.context.error !== null);
    submit(started);
    expect(started.actor.getSnapshot().context.error).toBeNull();
  });
});

describe('the default side effects', () => {
  it('are provided by the page: the bare machine cannot look an invite up', async () => {
    const actor = createActor(inviteRegistrationMachine, { input: { inviteId: 'x' } }).start();
    const snapshot = await waitFor(actor, (s) => s.matches('unavailable'), { timeout: 1000 });
    expect(snapshot.context.error).toBe('lookupInvite is provided by the invite page');
    actor.stop();
  });
});
