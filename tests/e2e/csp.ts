// Content Security Policy violations in the end-to-end suite. Every browser context that
// launchBrowser's browser opens reports them: the page's `securitypolicyviolation` events (through
// an init script, which the policy does not govern) and Chromium's own console messages. The
// suite's setup fails a test that leaves any behind; a test that provokes one on purpose takes it.
import type { BrowserContext } from 'playwright-core';

export interface CspViolation {
  /** The page's URL when the violation was reported. */
  url: string;
  text: string;
}

const MARKER = 'Content Security Policy';
const found: CspViolation[] = [];

/** Starts collecting the violations of every page of the context, present and future. */
export async function watchCspViolations(context: BrowserContext): Promise<void> {
  context.on('console', (message) => {
    const text = message.text();
    if (text.includes(MARKER)) found.push({ url: message.page()?.url() ?? '(no page)', text });
  });
  await context.addInitScript((marker: string) => {
    window.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const blocked = event.blockedURI || 'inline';
        const at = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : '';
        const sample = event.sample ? ` (${event.sample})` : '';
        console.error(`${marker} violation: ${event.effectiveDirective} blocked ${blocked}${at}${sample}`);
      },
      true,
    );
  }, MARKER);
}

/** The violations reported since the last call, which it clears. */
export function takeCspViolations(): CspViolation[] {
  return found.splice(0);
}

/** The violations reported so far, left in place. */
export function pendingCspViolations(): readonly CspViolation[] {
  return found;
}
