// npm run bench:view-as (and the last part of npm run bench): 'View as Affiliate' among thousands
// of affiliates, in headless Chromium against the reference server with SEED_AFFILIATES partner
// organisations. It prints; it asserts nothing (timed assertions do not belong in tests).
//
// Signed in as the superuser admin on the dashboard of every affiliate, it times from the input
// event (its timeStamp, in the page) to the paint of the first frame that shows the outcome:
// - opening the list with a click, and with ArrowDown: the list shown with every affiliate
//   (aria-setsize) and, for ArrowDown, an active option;
// - each keystroke of typing a name ('globetrotter lisbon'), a name without its accent ('zurich')
//   and an affiliate id ('aff-4321'): the input holding what was typed, the list saying as many
//   options as the portal's own filter finds (computed here from the same list with the same
//   functions), and every row in the page matching what was typed.
// Each frame after the input is checked before it paints (requestAnimationFrame), and the paint
// is taken as the task after that frame (a message posted from it). Runs repeat on the same page,
// the list closed with Escape between them; medians are printed with their range.
//
// Options: --affiliates 5000  --runs 5
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { affiliateListSchema } from '../src/api/schemas.ts';
import { affiliateOptions } from '../src/components/affiliate-options.ts';
import { filterOptions, prepareOptions } from '../src/components/combobox-search.ts';
import { startServer } from '../server/index.ts';
import { CHROMIUM_LAUNCH, findChromium } from '../tests/e2e/browser.ts';
import { DIST } from '../scripts/dist.ts';
import { buildPortalIfStale, makeTempRoot, returningUserContext, signIn } from './browser/site.ts';
import { mark, median, ms, number, option, spread } from './report.ts';

const AFFILIATES = Number((option('affiliates') ?? '5000').replace(/_/g, ''));
const RUNS = Number(option('runs') ?? 5);
if (!Number.isInteger(AFFILIATES) || AFFILIATES < 1 || !Number.isInteger(RUNS) || RUNS < 1) {
  console.error('Usage: npm run bench:view-as -- [--affiliates 5000] [--runs 5]');
  process.exit(2);
}

/** The goal: the list, and each keystroke's result, shown within 50 ms. */
const GOAL_MS = 50;
const TYPED = ['globetrotter lisbon', 'zurich', 'aff-4321'] as const;
const OWN_VIEW = 'Own view (all affiliates)';
const STEP_TIMEOUT_MS = 10_000;

/** What the page must show: the list open with `setsize` options, those in the page matching `query` (null: every affiliate). */
interface Wanted {
  query: string | null;
  setsize: number;
  active: boolean;
}

interface Shown {
  /** From the input event to the paint. */
  paint: number;
  /** Option elements in the page at that paint. */
  rows: number;
}

declare global {
  interface Window {
    __viewAs: { arm(eventType: string, wanted: Wanted): void; shown: Promise<Shown> | null };
  }
}

/** Runs in the page (serialized by Playwright: it may use nothing from outside). */
function installViewAsProbe(): void {
  const searchable = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
  const matches = (wanted: Wanted): number | null => {
    const input = document.querySelector<HTMLInputElement>('input[role="combobox"]');
    const listbox = document.getElementById(input?.getAttribute('aria-controls') ?? '');
    if (!input || !listbox || listbox.hidden || input.getAttribute('aria-expanded') !== 'true') return null;
    if (wanted.active && !input.getAttribute('aria-activedescendant')) return null;
    if (wanted.query !== null && input.value !== wanted.query) return null;
    const rows = [...listbox.querySelectorAll('[role="option"]')];
    if (rows[0]?.getAttribute('aria-setsize') !== String(wanted.setsize)) return null;
    if (wanted.query !== null) {
      const words = searchable(wanted.query).split(' ');
      for (const row of rows) {
        if (row.getAttribute('aria-posinset') === '1') continue; // the own view, always listed
        const name = searchable(row.firstElementChild?.textContent ?? '');
        const id = searchable((row.lastElementChild?.textContent ?? '').split(' · ')[0] ?? '');
        if (!words.every((word) => name.includes(word) || id.includes(word))) return null;
      }
    }
    return rows.length;
  };
  window.__viewAs = {
    shown: null,
    arm(eventType, wanted) {
      window.__viewAs.shown = new Promise((resolve) => {
        const onInput = (event: Event) => {
          window.removeEventListener(eventType, onInput, true);
          const input = event.timeStamp;
          const frame = () =>
            requestAnimationFrame(() => {
              const rows = matches(wanted);
              if (rows === null) return frame();
              const channel = new MessageChannel();
              channel.port1.onmessage = () => resolve({ paint: performance.now() - input, rows });
              channel.port2.postMessage(null);
            });
          frame();
        };
        window.addEventListener(eventType, onInput, true);
      });
    },
  };
}

async function timed(page: Page, eventType: string, wanted: Wanted, act: () => Promise<void>, what: string): Promise<Shown> {
  await page.evaluate(([type, want]) => window.__viewAs.arm(type, want), [eventType, wanted] as const);
  await act();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      page.evaluate(() => window.__viewAs.shown!),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Timed out after ${STEP_TIMEOUT_MS} ms waiting for ${what}`)), STEP_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function main() {
  buildPortalIfStale();
  const tempRoot = makeTempRoot();
  const server = await startServer({
    port: 0,
    databasePath: path.join(tempRoot, 'portal.sqlite'),
    distDir: DIST,
    demo: true,
    seedAffiliates: AFFILIATES,
    accessLifetimeSeconds: 3 * 60 * 60,
    log: () => {},
  });
  const browser = await chromium.launch({ executablePath: findChromium(), ...CHROMIUM_LAUNCH });
  try {
    const token = await signIn(server, 'admin');
    // The list the page lists, from the same answer and the same functions: how many options each query leaves.
    const response = await fetch(`${server.url}/api/v2/affiliates/`, { headers: { Authorization: `Bearer ${token.access}` } });
    const affiliates = affiliateListSchema
      .parse(await response.json())
      .map((affiliate) => ({ id: affiliate.affiliate_ID, name: affiliate.name, parent_id: affiliate.parent }));
    const prepared = prepareOptions(affiliateOptions(affiliates, { first: { value: '', label: OWN_VIEW } }));
    const count = (query: string) => filterOptions(prepared, query).length;
    const all = count('');

    const context = await returningUserContext(browser, server.url, token, { viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addInitScript(installViewAsProbe);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const input = page.getByRole('combobox', { name: 'View as Affiliate' });
    await page.waitForFunction(
      () => {
        const element = document.querySelector<HTMLInputElement>('input[role="combobox"]');
        return element !== null && !element.disabled;
      },
      null,
      { timeout: 60_000 },
    );
    // The dashboard's own loads settle first.
    await page.waitForTimeout(2_000);
    const close = async () => {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(200);
    };

    const openClick: Shown[] = [];
    const openArrow: Shown[] = [];
    const keystrokes = new Map<string, number[][]>(TYPED.map((text) => [text, []]));
    for (let run = 0; run < RUNS; run++) {
      openClick.push(await timed(page, 'click', { query: null, setsize: all, active: false }, () => input.click(), 'the list on a click'));
      await close();
      openArrow.push(
        await timed(
          page,
          'keydown',
          { query: null, setsize: all, active: true },
          () => page.keyboard.press('ArrowDown'),
          'the list on ArrowDown',
        ),
      );
      await close();
      for (const text of TYPED) {
        // Escape put the choice back, its name selected: the first key replaces it.
        const times: number[] = [];
        for (let length = 1; length <= text.length; length++) {
          const query = text.slice(0, length);
          const shown = await timed(
            page,
            'keydown',
            { query, setsize: count(query), active: false },
            () => page.keyboard.press(text[length - 1] === ' ' ? 'Space' : text[length - 1]!),
            `the list for '${query}'`,
          );
          times.push(shown.paint);
        }
        keystrokes.get(text)!.push(times);
        await close();
      }
      process.stderr.write(`  run ${run + 1}/${RUNS}: open ${ms(openClick.at(-1)!.paint)}, ArrowDown ${ms(openArrow.at(-1)!.paint)}\n`);
    }

    console.log('');
    console.log(
      `View as Affiliate, ${number.format(all - 1)} affiliates (${number.format(AFFILIATES)} seeded), headless Chromium, ${RUNS} runs: from the input to the paint that shows the list`,
    );
    console.log('');
    console.log(`| action | input to paint | rows in the page | goal ≤ ${GOAL_MS} ms |`);
    console.log('| --- | --- | --- | --- |');
    const openRow = (name: string, shown: Shown[]) => {
      const paints = shown.map((entry) => entry.paint);
      console.log(`| ${name} | ${spread(paints)} | ${shown[0]!.rows} of ${number.format(all)} | ${mark(median(paints) <= GOAL_MS)} |`);
    };
    openRow('open the list (click)', openClick);
    openRow('open the list (ArrowDown)', openArrow);
    for (const [text, runs] of keystrokes) {
      const perKey = Array.from({ length: text.length }, (_, index) => median(runs.map((times) => times[index]!)));
      const worst = Math.max(...perKey);
      const every = runs.flat();
      console.log(
        `| type '${text}', each of ${text.length} keystrokes | ${ms(median(every))} median, slowest key ${ms(worst)} ('${text.slice(0, perKey.indexOf(worst) + 1)}', ${number.format(count(text.slice(0, perKey.indexOf(worst) + 1)))} matches) | | ${mark(worst <= GOAL_MS)} |`,
      );
    }
    console.log('');
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(tempRoot, { recursive: true, force: true });
  }
}

await main();
