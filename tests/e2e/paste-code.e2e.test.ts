// Pasting a code in a real Chromium against the built portal and the reference server: a code
// grouped for reading ('123 456', '123-456') keeps its digits and signs the account in.
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkScreen } from './checks.ts';
import { setUpPortal } from './harness.ts';
import { account, totp } from './portal.ts';
import { dashboardHeading, submitCredentials } from './session.ts';

const e2e = setUpPortal();
let page: Page;

beforeEach(async () => {
  const context = e2e.track(await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } }));
  // The portal's own page may read and write the clipboard, as a user allows it.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.portal.url });
  page = await context.newPage();
});

describe('pasting a code', () => {
  it("signs a TOTP account in with its code copied as '123 456' and pasted with the keyboard", async () => {
    const { totpSecret } = account('globetrotter');
    await submitCredentials(page, e2e.portal, 'globetrotter');
    await page.getByRole('heading', { name: 'Enter 2FA Code' }).waitFor();

    const code = await totp(totpSecret!);
    const grouped = `${code.slice(0, 3)} ${code.slice(3)}`;
    await page.evaluate((text) => navigator.clipboard.writeText(text), grouped);
    const field = page.getByLabel('Authentication Code');
    await field.focus();
    await page.keyboard.press('ControlOrMeta+V');

    expect(await field.inputValue()).toBe(code);
    await checkScreen(page, 'totp-verification-pasted');
    await page.getByRole('button', { name: 'Verify' }).click();
    await dashboardHeading(page).waitFor();
    expect(page.url()).toBe(`${e2e.portal.url}/`);
  });

  it("signs an e-mail account in with its code pasted as '123-456'", async () => {
    const { email } = account('berlin');
    await submitCredentials(page, e2e.portal, 'berlin');
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();

    const code = await e2e.portal.emailCode(email);
    const field = page.getByLabel('Email Verification Code');
    await field.focus();
    // A paste event carrying the text, as the browser fires it for a paste from any source.
    await field.evaluate(
      (input, text) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      },
      `${code.slice(0, 3)}-${code.slice(3)}`,
    );

    expect(await field.inputValue()).toBe(code);
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await dashboardHeading(page).waitFor();
    expect(page.url()).toBe(`${e2e.portal.url}/`);
  });
});
