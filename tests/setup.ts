// Shared set-up for the jsdom test project.
// Any console.error or console.warn (React reports its warnings through them) fails the test
// that caused it. A test that expects one asserts it and then clears the spy:
//   expect(console.error).toHaveBeenCalledWith(...); vi.mocked(console.error).mockClear();
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { format } from 'node:util';
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';

type ConsoleMethod = 'error' | 'warn';

const spies = new Map<ConsoleMethod, MockInstance<(...args: unknown[]) => void>>();

beforeEach(() => {
  spies.set('error', vi.spyOn(console, 'error'));
  spies.set('warn', vi.spyOn(console, 'warn'));
});

afterEach(() => {
  cleanup();

  const messages: string[] = [];
  for (const [method, spy] of spies) {
    for (const args of spy.mock.calls) {
      messages.push(`console.${method}: ${format(...args)}`);
    }
    spy.mockRestore();
  }
  spies.clear();

  if (messages.length > 0) {
    throw new Error(`Unexpected console output during the test:\n${messages.join('\n')}`);
  }
});
