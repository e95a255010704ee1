// The tag manager never sees an invite's id: it does not load on /invite/..., and loads once the
// user has left it, on a page whose URL holds no secret.
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { TagManager } from './tag-manager.tsx';

const tagScripts = () =>
  [...document.head.querySelectorAll<HTMLScriptElement>('script')].filter((script) =>
    script.src.startsWith('https://www.googletagmanager.com/'),
  );

afterEach(() => {
  for (const script of tagScripts()) script.remove();
  delete (window as Window & { dataLayer?: unknown[] }).dataLayer;
});

function renderAt(path: string, gtmId: string | undefined) {
  const location = memoryLocation({ path });
  render(
    <Router hook={location.hook}>
      <TagManager gtmId={gtmId} />
    </Router>,
  );
  return location;
}

describe('the tag manager', () => {
  it('loads at start-up on a page that is not an invite, once', () => {
    const location = renderAt('/login', 'GTM-TEST1');
    expect(tagScripts().map((script) => script.src)).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-TEST1']);
    act(() => location.navigate('/'));
    act(() => location.navigate('/reports'));
    expect(tagScripts()).toHaveLength(1);
    const starts = ((window as Window & { dataLayer?: unknown[] }).dataLayer ?? []).filter(
      (entry) => (entry as { event?: string }).event === 'gtm.js',
    );
    expect(starts).toHaveLength(1);
  });

  it('does not load on an invite page, and loads once the user has left it', () => {
    const location = renderAt('/invite/0d3f6c1e-5b7a-4c2d-9e8f-1a2b3c4d5e6f', 'GTM-TEST1');
    expect(tagScripts()).toEqual([]);
    expect((window as Window & { dataLayer?: unknown[] }).dataLayer ?? []).toEqual([]);

    act(() => location.navigate('/'));
    expect(tagScripts()).toHaveLength(1);
  });

  it('never loads without a container id', () => {
    renderAt('/login', undefined);
    expect(tagScripts()).toEqual([]);
  });
});

describe('a visit that starts on an invite link', () => {
  it('starts the portal without the tag manager', async () => {
    vi.resetModules();
    vi.doMock('../config/env.ts', async (importOriginal) => {
      const { env } = await importOriginal<typeof import('../config/env.ts')>();
      return { env: { ...env, gtmId: 'GTM-TEST1' } };
    });
    window.history.replaceState(null, '', '/invite/0d3f6c1e-5b7a-4c2d-9e8f-1a2b3c4d5e6f');
    document.body.innerHTML = '<div id="root"></div>';
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    try {
      await act(() => import('../main.tsx'));
      expect(tagScripts()).toEqual([]);
      expect(window.location.pathname).toMatch(/^\/invite\//);
    } finally {
      vi.unstubAllGlobals();
      vi.doUnmock('../config/env.ts');
      window.history.replaceState(null, '', '/');
    }
  });
});
