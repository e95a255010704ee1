// `npm run paths -- --run ... --reporter junit` (scripts/paths.ts): the results as JUnit XML, which
// Jenkins, GitLab and GitHub Actions' test reporters read. One <testsuite> for the run, one
// <testcase> per path (classname `paths.<machine>`, name the path id); a failing path's
// <failure> says the step in its message and the step's words and screenshot in its text, and
// its <system-out> names the screenshot as `[[ATTACHMENT|file]]`, the way Jenkins and GitLab
// attach a file to a test.
import type { PathResult } from './paths-run.ts';

/** What XML 1.0 cannot hold at all, even escaped (control characters such as a terminal's colour codes, lone surrogates): dropped. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text between tags: `&`, `<` and `>` escaped. */
export const xmlText = (text: string) => text.replace(NOT_XML, '').replace(/[&<>]/g, (char) => entities[char]!);

/** A value between double quotes: `"` escaped too, and line breaks and tabs as references, which a parser would otherwise turn into spaces. */
export const xmlAttribute = (text: string) =>
  text.replace(NOT_XML, '').replace(/[&<>"\t\n\r]/g, (char) => entities[char] ?? `&#${char.charCodeAt(0)};`);

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join('');

/** Seconds as JUnit writes them: a decimal with milliseconds. */
const seconds = (value: number) => value.toFixed(3);

/** What a failing path's <failure> says beneath its message: the step as the printed steps say it, and its screenshot. */
function failureText(result: PathResult): string {
  return [
    result.detail ?? '',
    ...(result.failedStep
      ? [`Step ${result.failedStep.number}: ${result.failedStep.action}`, `Expected: ${result.failedStep.expected}`]
      : []),
    ...(result.screenshot ? [`Screenshot: ${result.screenshot}`] : []),
  ].join('\n');
}

function testcase(result: PathResult): string[] {
  const open = `    <testcase${attributes({ classname: `paths.${result.machine}`, name: result.id, time: seconds(result.seconds) })}`;
  if (result.outcome === 'PASS') return [`${open}/>`];
  if (result.outcome === 'SKIP') return [open + '>', `      <skipped${attributes({ message: result.detail ?? '' })}/>`, '    </testcase>'];
  return [
    open + '>',
    `      <failure${attributes({ message: result.detail ?? '', type: 'StepFailed' })}>${xmlText(failureText(result))}</failure>`,
    ...(result.screenshot ? [`      <system-out>${xmlText(`[[ATTACHMENT|${result.screenshot}]]`)}</system-out>`] : []),
    '    </testcase>',
  ];
}

export interface JunitRun {
  results: readonly PathResult[];
  /** When the run began. */
  startedAt: Date;
  /** How long it took, in seconds. */
  seconds: number;
}

/** The run as a JUnit XML document. */
export function junitXml({ results, startedAt, seconds: total }: JunitRun): string {
  const count = (outcome: PathResult['outcome']) => results.filter((result) => result.outcome === outcome).length;
  const counts = { tests: results.length, failures: count('FAIL'), errors: 0, skipped: count('SKIP'), time: seconds(total) };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'npm run paths', ...counts })}>`,
    // The timestamp in UTC without a zone, as the JUnit schema writes it.
    `  <testsuite${attributes({ name: 'paths', ...counts, timestamp: startedAt.toISOString().slice(0, 19) })}>`,
    ...results.flatMap(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
