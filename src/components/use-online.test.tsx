import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useBackOnline } from './use-online.ts';

describe('useBackOnline', () => {
  it('calls back, as of the last render, each time the connection is back, also when the page renders during the event', () => {
    const calls: number[] = [];
    let renderAgain = () => {};
    function Page() {
      const [renders, setRenders] = useState(0);
      renderAgain = () => setRenders((count) => count + 1);
      useBackOnline(() => calls.push(renders));
      return null;
    }
    // As in a browser, where React renders between one listener and the next: one that comes
    // first (useOnline's, say) has the page rendered again before the hook's runs.
    const first = () => act(renderAgain);
    window.addEventListener('online', first);
    onTestFinished(() => window.removeEventListener('online', first));
    const { unmount } = render(<Page />);

    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('online'));
    expect(calls).toEqual([1, 2]);

    unmount();
    window.dispatchEvent(new Event('online'));
    expect(calls).toEqual([1, 2]);
  });
});
