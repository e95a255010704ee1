// Invite registration against the reference server: the demo invite for Globetrotter Lisbon, the
// client's field checks, the server's field error, a registration that lands on the 2FA set-up and,
// with an e-mailed code, on the dashboard; the used invite and an unknown one are 'Invalid Invite'.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_INVITE_ID } from '../../server/seed.ts';
import { checkScreen } from './checks.ts';
import { setUpPortal } from './harness.ts';
import { password } from './portal.ts';
import { DESKTOP, expectVisible, step } from './session.ts';

const JOIN = 'Join';
const INVALID = 'Invalid Invite';
const NEW_EMAIL = 'lisbon.agent@demo.example';

const e2e = setUpPortal();

async function openInvite(inviteId: string): Promise<Page> {
  const context = e2e.track(await e2e.browser.newContext(DESKTOP));
  const page = await context.newPage();
  await page.goto(`${e2e.portal.url}/invite/${inviteId}`);
  return page;
}

async function joinFormShown(p: Page): Promise<void> {
  await expectVisible(
    p,
    JOIN,
    p.getByRole('heading', { level: 1, name: 'Join Globetrotter Lisbon' }),
    "the 'Join' form naming Globetrotter Lisbon",
    15_000,
  );
}

async function fillForm(p: Page, email: string, secret: string, confirm: string): Promise<void> {
  await p.getByLabel('Email', { exact: true }).fill(email);
  await p.getByLabel('Password', { exact: true }).fill(secret);
  await p.getByLabel('Confirm Password', { exact: true }).fill(confirm);
}

const createAccount = (p: Page) => p.getByRole('button', { name: 'Create Account' }).click();
const alertWith = (p: Page, text: string) => p.getByRole('alert').filter({ hasText: text });

async function invalidInviteShown(p: Page, why: string): Promise<void> {
  await expectVisible(p, INVALID, p.getByRole('heading', { level: 1, name: INVALID }), `'${INVALID}' for ${why}`, 15_000);
  await expectVisible(p, INVALID, alertWith(p, 'The invite link appears to be invalid or expired.'), 'the invalid-invite message');
  await expectVisible(p, INVALID, p.getByRole('button', { name: 'Go to Login' }), "the 'Go to Login' button");
}

describe('invite registration', () => {
  it('shows the Join form and checks the fields on the client and the server', async () => {
    const p = await openInvite(DEMO_INVITE_ID);
    await joinFormShown(p);
    await step(p, JOIN, 'the fields Email, Password and Confirm Password and the buttons', async () => {
      for (const label of ['Email', 'Password', 'Confirm Password']) await p.getByLabel(label, { exact: true }).waitFor();
      await p.getByRole('button', { name: 'Back to Login' }).waitFor();
      await p.getByRole('button', { name: 'Create Account' }).waitFor();
    });
    await step(p, JOIN, "the password rules under 'Password', describing it, before anything is sent", async () => {
      const rules = await p.getByRole('listitem').allTextContents();
      expect(rules).toEqual([
        'Your password can’t be too similar to your other personal information.',
        'Your password must contain at least 8 characters.',
        'Your password can’t be a commonly used password.',
        'Your password can’t be entirely numeric.',
      ]);
      const describedBy = await p.getByLabel('Password', { exact: true }).getAttribute('aria-describedby');
      expect(await p.locator(`[id="${describedBy}"]`).textContent()).toBe(rules.join(''));
    });
    await checkScreen(p, 'invite-join');

    await createAccount(p);
    await expectVisible(p, JOIN, alertWith(p, 'Email is required'), "'Email is required' after submitting the empty form");
    await expectVisible(p, JOIN, alertWith(p, 'Password is required'), "'Password is required' after submitting the empty form");
    await checkScreen(p, 'invite-join-errors');

    await fillForm(p, NEW_EMAIL, password, `${password}-typo`);
    await createAccount(p);
    await expectVisible(p, JOIN, alertWith(p, "Passwords don't match"), '"Passwords don\'t match" for different passwords');

    await fillForm(p, NEW_EMAIL, 'short1', 'short1');
    await createAccount(p);
    await expectVisible(
      p,
      JOIN,
      alertWith(p, 'This password is too short. It must contain at least 8 characters.'),
      "the server's field error for a short password under Password",
    );
    await step(p, JOIN, 'the Password field marked invalid and described by the error', async () => {
      expect(await p.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      const describedBy = await p.getByLabel('Password', { exact: true }).getAttribute('aria-describedby');
      expect(await p.locator(`[id="${describedBy}"]`).textContent()).toContain('too short');
      // What the user typed stays.
      expect(await p.getByLabel('Email', { exact: true }).inputValue()).toBe(NEW_EMAIL);
    });
    // Still the form: nothing was registered, the invite still works.
    expect(new URL(p.url()).pathname).toBe(`/invite/${DEMO_INVITE_ID}`);

    await p.getByRole('button', { name: 'Back to Login' }).click();
    await step(p, JOIN, "'Back to Login' going to /login", () => p.waitForURL(`${e2e.portal.url}/login`));
    await expectVisible(p, 'login', p.getByRole('heading', { name: 'Affiliate Login' }), "the 'Affiliate Login' form");
  });

  it('registers with the invite, sets up e-mailed codes and reaches the dashboard; the invite then is used up', async () => {
    const p = await openInvite(DEMO_INVITE_ID);
    await joinFormShown(p);
    await fillForm(p, NEW_EMAIL, password, password);
    await createAccount(p);

    await step(p, 'registration', 'the route / after creating the account', () => p.waitForURL(`${e2e.portal.url}/`));
    await expectVisible(
      p,
      '2FA setup required',
      p.getByRole('heading', { name: 'Two-Factor Authentication Required' }),
      "'Two-Factor Authentication Required' for the new account",
      15_000,
    );
    await step(p, '2FA setup required', 'the new account stored in localStorage auth_token', async () => {
      const stored = JSON.parse((await p.evaluate(() => localStorage.getItem('auth_token'))) ?? 'null') as { username?: string } | null;
      expect(stored?.username).toBe(NEW_EMAIL);
    });
    await expectVisible(
      p,
      '2FA setup required',
      p.getByRole('status').filter({ hasText: 'Your account is created. One more step: set up two-factor authentication.' }),
      'the greeting of the new account',
    );
    await checkScreen(p, 'setup-required-new-account');

    await p.getByRole('button', { name: 'Email Codes' }).click();
    await expectVisible(
      p,
      'e-mail 2FA setup',
      p.getByRole('heading', { name: 'Confirm Email 2FA Setup' }),
      "'Confirm Email 2FA Setup'",
      15_000,
    );
    await expectVisible(p, 'e-mail 2FA setup', p.getByText(NEW_EMAIL), 'the address the code went to');
    await p.getByLabel('Email Verification Code').fill(await e2e.portal.emailCode(NEW_EMAIL));
    await p.getByRole('button', { name: 'Confirm' }).click();
    await expectVisible(
      p,
      'dashboard',
      p.getByRole('heading', { level: 1, name: 'Globetrotter Lisbon Sales Dashboard' }),
      "Globetrotter Lisbon's dashboard after the set-up",
      15_000,
    );

    // The same invite in another browser: used up.
    const other = await (await e2e.browser.newContext(DESKTOP)).newPage();
    try {
      await other.goto(`${e2e.portal.url}/invite/${DEMO_INVITE_ID}`);
      await invalidInviteShown(other, 'the invite already used');
      await checkScreen(other, 'invite-invalid');
      await other.getByRole('button', { name: 'Go to Login' }).click();
      await step(other, INVALID, "'Go to Login' going to /login", () => other.waitForURL(`${e2e.portal.url}/login`));
      await expectVisible(other, 'login', other.getByRole('heading', { name: 'Affiliate Login' }), "the 'Affiliate Login' form");
    } finally {
      await other.context().close();
    }
  });

  it("says 'Invalid Invite' for an unknown invite id", async () => {
    const p = await openInvite('00000000-0000-4000-8000-000000000000');
    await invalidInviteShown(p, 'an unknown invite id');
    await step(p, INVALID, 'no Join form', async () => expect(await p.getByRole('button', { name: 'Create Account' }).count()).toBe(0));
  });
});
