// What every screen of the end-to-end suite is checked for: axe-core finds no serious or critical
// accessibility violation, and a screenshot is kept (docs/screenshots with UPDATE_SCREENSHOTS=1,
// else test-results/screenshots) so that a reader can see the portal without running it.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '../..');
const axeSource = fs.readFileSync(path.join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
export const SCREENSHOT_DIR = path.join(root, process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-results/screenshots');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Fails, naming the screen, when axe-core reports a serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Evaluated through the browser's debugging protocol, which the page's Content Security Policy
  // does not govern; a <script> tag (page.addScriptTag) would be an inline script it blocks.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  if (serious.length > 0) {
    const lines = serious.map((v) => `  ${v.impact}: ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
    throw new Error(`Accessibility violations on the ${screen} screen:\n${lines.join('\n')}`);
  }
}

export async function keepScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * Waits until the page has stopped changing: no DOM mutation for `quietMs` (a chart that re-measures
 * after a resize animates its axes for a while), giving up after `timeoutMs`.
 */
export async function settled(page: Page, quietMs = 300, timeoutMs = 5_000): Promise<void> {
  await page.evaluate(
    ([quiet, limit]) =>
      new Promise<void>((resolve) => {
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, quiet);
        });
        let timer = setTimeout(done, quiet);
        const giveUp = setTimeout(done, limit);
        function done() {
          observer.disconnect();
          clearTimeout(timer);
          clearTimeout(giveUp);
          resolve();
        }
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      }),
    [quietMs, timeoutMs] as const,
  );
}

/** The page's side margin on a phone (--space-4): no card comes nearer the screen's edges. */
const PHONE_MARGIN_PX = 16;

/** Fails, naming the screen, when a card comes nearer a side of the screen than the page's margin. */
export async function expectCardsInMargins(page: Page, screen: string): Promise<void> {
  const outside = await page.evaluate((margin) => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('.card')]
      .map((card) => ({ card, box: card.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.left < margin - 0.5 || box.right > width - margin + 0.5))
      .map(({ card, box }) => `${card.className} at ${Math.round(box.left)}–${Math.round(box.right)} px of ${width}`);
  }, PHONE_MARGIN_PX);
  if (outside.length > 0) throw new Error(`Cards outside the page's margins on the ${screen} screen: ${outside.join('; ')}`);
}

/**
 * Both checks, at desktop and at mobile width (390 px), then back to desktop; each once the page
 * has settled. At 390 px, also that every card keeps the page's margins.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await settled(page);
  await expectAccessible(page, name);
  await keepScreenshot(page, `${name}-desktop`);
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  await expectAccessible(page, `${name} (390 px)`);
  await expectCardsInMargins(page, `${name} (390 px)`);
  await keepScreenshot(page, `${name}-mobile`);
  if (desktop) {
    await page.setViewportSize(desktop);
    await settled(page);
  }
}
