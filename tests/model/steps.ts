// QA's steps: each model path told as what a person does and sees. A machine's words
// (tests/model/*-words.ts) name its screens, what shows in each state and what a person does for
// each event; the model-based drivers (jsdom) and the browser runner (scripts/paths-run.ts) act
// and check with those same words, so the printed steps say what the tests do.
//   A person step   one thing the person does (or that happens to the session: another tab, the
//                   clock), with the answers of the calls it starts (the outcomes that follow it
//                   in the path): "press 'Verify' (a wrong code): 'Verifying...', then 'Invalid …'"
//   Step 1          how the path starts (the page opened, as whom), with the answers of the calls
//                   the page makes as it opens
import Papa from 'papaparse';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { MachinePath } from './coverage.ts';

// --- Words ------------------------------------------------------------------------------------

/** A text the page shows, or the name of a control, quoted in the steps: 'Enter 2FA Code'. */
export interface Quote {
  readonly text: string;
  /**
   * Where the words come from when the spec and decisions do not quote them: the phrase of theirs
   * that describes the text ('Titled as the affiliate login'), or why the page says it in words of
   * its own (the server's, or the browser's).
   */
  readonly origin?: { readonly describedAs: string } | { readonly own: string };
}

/** Words of a step: plain text and quotes, nested as they are put together. */
export type Words = string | Quote | readonly Words[];

/** A text quoted from the spec or decisions. */
export const q = (text: string): Quote => ({ text });
/** A text the spec or decisions describe in `phrase` without quoting it. */
export const described = (text: string, phrase: string): Quote => ({ text, origin: { describedAs: phrase } });
/** A text in the page's (or the server's) own words, with why. */
export const own = (text: string, why: string): Quote => ({ text, origin: { own: why } });

const isQuote = (words: Words): words is Quote => typeof words === 'object' && 'text' in words;

/** Words put together: `w\`type ${code} into ${field}\``. */
export function w(strings: TemplateStringsArray, ...values: Words[]): Words[] {
  return strings.flatMap((text, index) => (index < values.length ? [text, values[index]!] : [text]));
}

/** Words joined: `a, b and c`. */
export function listed(items: readonly Words[], last = 'and'): Words[] {
  return items.flatMap((item, index) => {
    if (index === 0) return [item];
    return [index === items.length - 1 ? ` ${last} ` : ', ', item];
  });
}

/** The words as text, quotes in single quotes. */
export function said(words: Words): string {
  if (typeof words === 'string') return words;
  if (isQuote(words)) return `'${words.text}'`;
  return words.map(said).join('');
}

/** Every quote in the words, in order. */
export function quotesOf(words: Words): Quote[] {
  if (typeof words === 'string') return [];
  if (isQuote(words)) return [words];
  return words.flatMap(quotesOf);
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// --- A machine's words ------------------------------------------------------------------------

/** A path cannot be told or done as it stands: which step, and why. */
export class NoWordsError extends Error {}

export interface MachineWords {
  /** The event is the answer of a call (or the loader) an earlier step started, not something a person does. */
  isOutcome(event: EventObject): boolean;
  /** Step 1: what the person opens, as whom; `outcomes` are the answers of the calls the page makes as it opens. */
  opening(path: MachinePath, outcomes: readonly EventObject[]): Words;
  /** The screen a state shows: its heading, or the line that stands for it (a spinner's). */
  screen(state: AnyMachineSnapshot): Words;
  /** What the person sees in the state, reached by `event`. */
  sees(state: AnyMachineSnapshot, event: EventObject): Words;
  /** What the person does for `event` in `from`; `outcomes` are the answers of the calls it starts. */
  does(event: EventObject, from: AnyMachineSnapshot, outcomes: readonly EventObject[]): Words;
}

/** One step as a person performs it. */
export interface PersonStep {
  /** 1, 2, …: step 1 opens the page. */
  number: number;
  screen: Words;
  action: Words;
  expected: Words;
  /** The path's steps it stands for (indexes of path.steps; step 1 also stands for the initial state, 0). */
  pathSteps: number[];
}

/** The path's steps, each person step with the outcomes that follow it. */
export function personSteps(path: MachinePath, words: MachineWords): PersonStep[] {
  const { steps } = path;
  const groups: number[][] = [[]];
  for (let index = 1; index < steps.length; index += 1) {
    if (words.isOutcome(steps[index]!.event)) groups.at(-1)!.push(index);
    else groups.push([index]);
  }
  return groups.map((group, position): PersonStep => {
    const number = position + 1;
    const first = group[0];
    const outcomes = (position === 0 ? group : group.slice(1)).map((index) => steps[index]!.event);
    const fromIndex = position === 0 ? 0 : first! - 1;
    const from = steps[fromIndex]!.state;
    const reached = position === 0 ? [0, ...group] : group;
    try {
      const action = position === 0 ? words.opening(path, outcomes) : words.does(steps[first!]!.event, from, outcomes);
      // What shows after each event of the step, each once: a pending line, then the answer's screen.
      const expected: Words[] = [];
      let last = '';
      for (const index of reached) {
        const sees = words.sees(steps[index]!.state, steps[index]!.event);
        const text = said(sees);
        if (text === '' || text === last) continue;
        expected.push(expected.length === 0 ? sees : [', then ', sees]);
        last = text;
      }
      return { number, screen: position === 0 ? '' : words.screen(from), action, expected, pathSteps: reached };
    } catch (error) {
      if (error instanceof NoWordsError) throw new NoWordsError(`step ${number}: ${error.message}`);
      throw error;
    }
  });
}

// --- Printing ---------------------------------------------------------------------------------

export interface ToldPath {
  id: string;
  /** Added by the UI suite rather than generated. */
  extra: boolean;
  steps: PersonStep[];
}

export type StepsFormat = 'text' | 'csv' | 'markdown';
export const STEPS_FORMATS: readonly StepsFormat[] = ['text', 'csv', 'markdown'];

/**
 * A step as one sentence: "On 'Enter 2FA Code', type a wrong code into 'Authentication Code',
 * press 'Verify': 'Verifying...' shows, then …". The screen is left out where the step before
 * was on it or ended on it.
 */
export function stepSentence(step: PersonStep, before?: PersonStep): string {
  const screen = said(step.screen);
  const known = before && (said(before.screen) === screen || said(before.expected).includes(screen));
  const on = screen && !known ? `On ${screen}, ` : '';
  const action = said(step.action);
  const expected = said(step.expected);
  const sentence = `${on ? on + action : capitalized(action)}${expected ? `: ${expected}` : ''}`;
  // A quoted sentence ends the step with its own full stop.
  return sentence.endsWith(".'") ? sentence : `${sentence}.`;
}

/** The plain printout: each path's id, then its steps, numbered. */
export function stepsText(paths: readonly ToldPath[]): string {
  return paths
    .map((path) =>
      [
        `${path.id}${path.extra ? ' (added by the UI suite)' : ''}`,
        ...path.steps.map((step, index) => `  ${step.number}. ${stepSentence(step, path.steps[index - 1])}`),
      ].join('\n'),
    )
    .join('\n\n');
}

/** The CSV columns. */
export const CSV_FIELDS = ['path', 'step', 'screen', 'action', 'expected'] as const;

/** One row per step, as test-management tools import them. */
export function stepsRows(paths: readonly ToldPath[]): Record<(typeof CSV_FIELDS)[number], string>[] {
  return paths.flatMap((path) =>
    path.steps.map((step) => ({
      path: path.id,
      step: String(step.number),
      screen: said(step.screen),
      action: capitalized(said(step.action)),
      expected: said(step.expected),
    })),
  );
}

/** The CSV: a header row, then one row per step (RFC 4180: CRLF, quoted where a field needs it). */
export function stepsCsv(paths: readonly ToldPath[]): string {
  const rows = stepsRows(paths);
  return Papa.unparse({ fields: [...CSV_FIELDS], data: rows.map((row) => CSV_FIELDS.map((field) => row[field])) }, { newline: '\r\n' });
}

const cell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** Markdown: a heading and a table of steps per path. */
export function stepsMarkdown(paths: readonly ToldPath[]): string {
  return paths
    .map((path) =>
      [
        `### ${path.id}${path.extra ? ' (added by the UI suite)' : ''}`,
        '',
        '| Step | Screen | Action | Expected |',
        '|---:|---|---|---|',
        ...stepsRows([path]).map((row) => `| ${row.step} | ${cell(row.screen)} | ${cell(row.action)} | ${cell(row.expected)} |`),
      ].join('\n'),
    )
    .join('\n\n');
}
