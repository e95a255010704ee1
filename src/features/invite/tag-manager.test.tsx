// The tag manager never sees an invite's id: the portal starts it at once on any other page, but on
// /invite/... only once the user leaves for a page whose URL holds no secret.
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

const tagScripts = () =>
  [...document.head.querySelectorAll<HTMLScriptElement>('script')].filter((script) =>
    script.src.startsWith('https://www.googletagmanager.com/'),
  );

/** The build's configuration with a tag manager. */
function withTagManager() {
  vi.resetModules();
  vi.doMock('../../config/env.ts', async (importOriginal) => {
    const { env } = await importOriginal<typeof import('../../config/env.ts')>();
    return { env: { ...env, gtmId: 'GTM-TEST1' } };
  });
}

afterEach(() => {
  for (const script of tagScripts()) script.remove();
  delete (window as Window & { dataLayer?: unknown[] }).dataLayer;
  vi.doUnmock('../../config/env.ts');
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

/** The portal's start-up (src/main.tsx) on `path`. */
async function startAt(path: string) {
  withTagManager();
  window.history.replaceState(null, '', path);
  document.body.innerHTML = '<div id="root"></div>';
  vi.stubGlobal('fetch', () => new Promise(() => {}));
  await act(() => import('../../main.tsx'));
}

describe('the tag manager', () => {
  it('loads at start-up on a page that is not an invite', async () => {
    await startAt('/login');
    expect(tagScripts().map((script) => script.src)).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-TEST1']);
  });

  it('does not load when the visit starts on an invite link', async () => {
    await startAt('/invite/0d3f6c1e-5b7a-4c2d-9e8f-1a2b3c4d5e6f');
    expect(tagScripts()).toEqual([]);
    expect(window.location.pathname).toMatch(/^\/invite\//);
  });

  it('loads once the user leaves the invite page, on the page they go to', async () => {
    withTagManager();
    // Both as the mocked configuration made them: the page and the session it renders in.
    const { default: InvitePage } = await import('./invite-page.tsx');
    const { renderWithSession } = await import('../../../tests/utils/render-session.tsx');
    const location = memoryLocation({ path: '/invite/no-such-invite', record: true });
    const { user } = renderWithSession(
      <Router hook={location.hook}>
        <InvitePage inviteId="no-such-invite" />
      </Router>,
    );
    await screen.findByRole('heading', { name: 'Invalid Invite' });
    expect(tagScripts()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Go to Login' }));
    expect(location.history.at(-1)).toBe('/login');
    expect(tagScripts()).toHaveLength(1);
  });
});
