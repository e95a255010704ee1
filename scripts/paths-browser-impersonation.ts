// Replays a path of the impersonation machine in Chromium (scripts/paths-run.ts), as the jsdom
// driver (tests/model/impersonation-driver.tsx) does, with the same words
// (tests/model/impersonation-words.ts): signed in as the superuser, on the dashboard of an
// affiliate outside the family, choosing the parent affiliate, its child or the own view in
// 'View as Affiliate'. After each step the page must show the state: 'Viewing as {name}' with its
// Stop button and the affiliate's dashboard at /, or no such line in the own view.
import type { Page } from 'playwright-core';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { ImpersonationEvent } from '../machines/impersonation.ts';
import { TOKEN_STORAGE_KEY } from '../src/domain/auth-token.ts';
import { VIEW_AS_KEY } from '../src/domain/view-as-choice.ts';
import { dashboardTexts } from '../tests/model/dashboard-words.ts';
import {
  impersonationControls,
  impersonationTexts,
  impersonationWords,
  type ImpersonatedAffiliate,
} from '../tests/model/impersonation-words.ts';
import type { BrowserRun } from './paths-browser-auth.ts';
import {
  apiSignIn,
  callApi,
  FIRST_SCREEN_TIMEOUT_MS,
  needAccount,
  SCREEN_TIMEOUT_MS,
  StepSkipped,
  storeFromOtherTab,
  until,
} from './paths-browser.ts';

const c = impersonationControls;

/**
 * Chooses in 'View as Affiliate': a native select's option, or, in an editable combobox, the
 * option whose text begins with the name.
 */
async function choose(page: Page, name: string): Promise<void> {
  const select = page.getByRole('combobox', { name: c.viewAs.text, exact: true });
  if ((await select.evaluate((element) => element.tagName)) === 'SELECT') {
    await select.selectOption({ label: name });
    return;
  }
  await select.fill(name === c.ownView.text ? '' : name);
  await page
    .getByRole('option', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })
    .first()
    .click();
}

export async function runImpersonationPath({ context, target, network, path, step }: BrowserRun): Promise<void> {
  const superuser = needAccount(target, 'superuser', 'a superuser');
  if (!target.family)
    throw new StepSkipped(
      'step 1: needs the affiliates to view as: set PATHS_PARENT_AFFILIATE, PATHS_CHILD_AFFILIATE and PATHS_OTHER_AFFILIATE',
    );
  const family = target.family;
  const page = await context.newPage();
  const session = await apiSignIn(target, superuser, true);
  const affiliates = (await callApi(target, 'affiliates/', undefined, session.access)) as unknown as {
    affiliate_ID: string;
    name: string;
  }[];
  const nameOf = (id: string) => affiliates.find((affiliate) => affiliate.affiliate_ID === id)?.name ?? id;
  const ids: Record<ImpersonatedAffiliate, string> = { P1: family.parent, C1: family.child };
  const idOf = (affiliateId: string) => ids[affiliateId as ImpersonatedAffiliate] ?? affiliateId;

  /** What of the state the page does not show now. */
  async function missing(snapshot: AnyMachineSnapshot): Promise<string[]> {
    const modelId = (snapshot.context as { affiliateId: string | null }).affiliateId;
    const problems: string[] = [];
    const viewingAs = page.getByText(new RegExp(`^${impersonationTexts.viewingAs.text} `));
    const at = new URL(page.url()).pathname;
    const heading = ((await page.getByRole('heading', { level: 1 }).allTextContents())[0] ?? '').trim();
    if (modelId === null) {
      if ((await viewingAs.count()) > 0) problems.push(`no '${impersonationTexts.viewingAs.text}' line`);
      if (!heading.endsWith(dashboardTexts.heading.text)) problems.push(`the heading '… ${dashboardTexts.heading.text}'`);
      return problems;
    }
    const name = nameOf(idOf(modelId));
    if ((await page.getByText(`${impersonationTexts.viewingAs.text} ${name}`, { exact: true }).count()) === 0)
      problems.push(`'${impersonationTexts.viewingAs.text} ${name}'`);
    if ((await page.getByRole('button', { name: `${c.stop.text} ${name}`, exact: true }).count()) === 0)
      problems.push(`'${c.stop.text} ${name}'`);
    if (at !== '/') problems.push('the address /');
    if (heading !== `${name} ${dashboardTexts.heading.text}`) problems.push(`the heading '${name} ${dashboardTexts.heading.text}'`);
    if ((await page.locator('.dashboard__content[aria-busy="false"]').count()) === 0) problems.push("the affiliate's figures loaded");
    return problems;
  }

  const check = (snapshot: AnyMachineSnapshot, event: EventObject, timeout = SCREEN_TIMEOUT_MS) =>
    until(page, impersonationWords.sees(snapshot, event), timeout, () => missing(snapshot));

  /**
   * How the page opens: afresh on the dashboard of an affiliate outside the family, or reloaded in
   * a tab that viewed as an affiliate before (its choice kept for the tab, as the portal keeps it).
   */
  async function open(affiliateId: string): Promise<void> {
    await page.goto(`${target.url}/affiliate/${family.outside}`);
    if (affiliateId === '') return;
    await page.evaluate(
      ([tokenKey, viewAsKey, chosen]) => {
        const username = (JSON.parse(localStorage.getItem(tokenKey) ?? '{}') as { username?: string }).username;
        sessionStorage.setItem(viewAsKey, JSON.stringify([username, chosen]));
      },
      [TOKEN_STORAGE_KEY, VIEW_AS_KEY, idOf(affiliateId)] as const,
    );
    await page.goto(`${target.url}/`);
  }

  try {
    await step(0, () => storeFromOtherTab(context, target, session));
    for (const [index, { event, state }] of path.steps.entries()) {
      if (index === 0) continue;
      await step(index, async () => {
        const impersonation = event as ImpersonationEvent;
        if (impersonation.type === 'IMPERSONATION.RESTORED') {
          await open(impersonation.affiliateId);
          await check(state, event, FIRST_SCREEN_TIMEOUT_MS);
          return;
        }
        await choose(page, impersonation.affiliateId === '' ? c.ownView.text : nameOf(idOf(impersonation.affiliateId)));
        await check(state, event);
      });
    }
  } finally {
    network.releaseAll();
  }
}
