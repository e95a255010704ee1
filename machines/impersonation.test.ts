// The impersonation machine with its default keeper: the tab's choice (sessionStorage) comes back
// for the user who made it, each choice is kept, and the choice is forgotten when the machine
// stops (the signed-in session ends).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { TOKEN_STORAGE_KEY } from '../src/domain/auth-token.ts';
import { VIEW_AS_KEY } from '../src/domain/view-as-choice.ts';
import { impersonationMachine, selectImpersonatedAffiliate } from './impersonation.ts';

const signedInAs = (username: string) =>
  window.localStorage.setItem(TOKEN_STORAGE_KEY, JSON.stringify({ username, access: 'a', refresh: 'r' }));
const kept = () => JSON.parse(window.sessionStorage.getItem(VIEW_AS_KEY) ?? 'null') as unknown;

describe("the tab's choice", () => {
  beforeEach(() => signedInAs('admin'));
  afterEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
    vi.restoreAllMocks();
  });

  it('starts in the own view when nothing is kept', () => {
    const actor = createActor(impersonationMachine).start();
    expect(actor.getSnapshot().value).toBe('none');
    expect(selectImpersonatedAffiliate(actor.getSnapshot())).toBeNull();
  });

  it('keeps each choice for the tab, and comes back with it on a reload', () => {
    const first = createActor(impersonationMachine).start();
    first.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'AFF-120' });
    expect(kept()).toEqual(['admin', 'AFF-120']);
    // A reload: the page goes without stopping anything, a new machine starts.
    const reloaded = createActor(impersonationMachine).start();
    expect(reloaded.getSnapshot().value).toBe('selected');
    expect(selectImpersonatedAffiliate(reloaded.getSnapshot())).toBe('AFF-120');
    reloaded.send({ type: 'IMPERSONATION.SELECT', affiliateId: '' });
    expect(kept()).toEqual(['admin', '']);
    expect(createActor(impersonationMachine).start().getSnapshot().value).toBe('none');
  });

  it('forgets the choice when the machine stops: the signed-in session ended', () => {
    const actor = createActor(impersonationMachine).start();
    actor.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'AFF-120' });
    actor.stop();
    expect(window.sessionStorage.getItem(VIEW_AS_KEY)).toBeNull();
  });

  it('does not give another user the choice (a tab signed out meanwhile, then signed in as someone else)', () => {
    window.sessionStorage.setItem(VIEW_AS_KEY, JSON.stringify(['admin', 'AFF-120']));
    signedInAs('berlin');
    expect(createActor(impersonationMachine).start().getSnapshot().value).toBe('none');
    window.localStorage.clear();
    expect(createActor(impersonationMachine).start().getSnapshot().value).toBe('none');
  });

  it('ignores a damaged entry, and works on, for the page only, where storage fails', () => {
    window.sessionStorage.setItem(VIEW_AS_KEY, '{damaged');
    expect(createActor(impersonationMachine).start().getSnapshot().value).toBe('none');
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    const actor = createActor(impersonationMachine).start();
    actor.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'AFF-120' });
    expect(Storage.prototype.setItem).toHaveBeenCalledWith(VIEW_AS_KEY, JSON.stringify(['admin', 'AFF-120']));
    expect(selectImpersonatedAffiliate(actor.getSnapshot())).toBe('AFF-120');
  });
});
