// Runs in every end-to-end test file: a test fails when a page broke the portal's Content Security
// Policy (collected by tests/e2e/csp.ts for every page launchBrowser's browser opens).
import { afterAll, afterEach } from 'vitest';
import { takeCspViolations } from './csp.ts';

function expectNoCspViolation(when: string): void {
  const violations = takeCspViolations();
  if (violations.length === 0) return;
  const lines = violations.map((violation) => `  ${violation.text}\n    on ${violation.url}`);
  throw new Error(`${violations.length} Content Security Policy violation(s) ${when}:\n${lines.join('\n')}`);
}

// Registered before each file's own hooks, so these run after them (pages closed, events in).
afterEach(() => expectNoCspViolation('during this test'));
afterAll(() => expectNoCspViolation('outside the tests of this file'));
