// A part of the page that fails to load or to render shows what failed and a way to reload, and
// the rest of the page stays.
import { render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary.tsx';

function Broken(): never {
  throw new Error('Cannot read properties of undefined');
}

/** React reports what a boundary caught on the console; the test expects exactly that. */
function expectReported(message: string) {
  const reported = vi
    .mocked(console.error)
    .mock.calls.flat()
    .filter((arg): arg is Error => arg instanceof Error);
  expect(reported.map((error) => error.message)).toContain(message);
  vi.mocked(console.error).mockClear();
}

describe('ErrorBoundary', () => {
  it('shows a page whose code fails to load as an error line with Reload, keeping what is outside', async () => {
    const message = 'Failed to fetch dynamically imported module: /assets/dashboard-page.js';
    const Page = lazy(() => Promise.reject(new Error(message)));
    render(
      <>
        <button type="button">Logout</button>
        <ErrorBoundary what="This page">
          <Suspense fallback={<p role="status">Loading...</p>}>
            <Page />
          </Suspense>
        </ErrorBoundary>
      </>,
    );

    expect(await screen.findByRole('alert')).toHaveTextContent(`This page could not be shown: ${message}`);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expectReported(message);
  });

  it('tries again with another resetKey (another location)', () => {
    const { rerender } = render(
      <ErrorBoundary what="The chart" resetKey="/">
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The chart could not be shown: Cannot read properties of undefined');
    expectReported('Cannot read properties of undefined');

    rerender(
      <ErrorBoundary what="The chart" resetKey="/reports">
        <p>Reports</p>
      </ErrorBoundary>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Reports')).toBeInTheDocument();
  });
});
