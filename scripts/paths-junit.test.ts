// @vitest-environment jsdom
// `npm run paths -- --run ... --reporter junit` (scripts/paths-junit.ts): JUnit XML that CI test
// reporters read, well-formed whatever a step's words or the page's texts hold.
import { describe, expect, it } from 'vitest';
import { junitXml } from './paths-junit.ts';
import type { PathResult } from './paths-run.ts';

/** The document an XML parser (jsdom's, this file's environment) makes of `xml`; a parse error fails the test. */
function parsed(xml: string): Document {
  const document = new DOMParser().parseFromString(xml, 'application/xml');
  const error = document.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`Not well-formed XML: ${error.textContent}`);
  return document;
}

const attributesOf = (element: Element | null | undefined) =>
  Object.fromEntries([...(element?.attributes ?? [])].map((attribute) => [attribute.name, attribute.value]));

const passed: PathResult = { id: 'auth-01', machine: 'auth', outcome: 'PASS', seconds: 3.2 };
const failedDetail =
  "step 3: expected the portal ('Logout' in the header) shows (missing: 'Logout' enabled); " +
  `the page showed heading 'Enter 2FA Code', status none, alerts 'Code <b>"wrong"</b> & refused', at /login`;
const failed: PathResult = {
  id: 'auth-07',
  machine: 'auth',
  outcome: 'FAIL',
  detail: failedDetail,
  failedStep: {
    number: 3,
    action: "type the code the user's authenticator app shows into 'Authentication Code', press 'Verify'",
    expected: "the portal ('Logout' in the header) shows",
  },
  screenshot: 'test-results/paths/auth-07-step-3.png',
  seconds: 12.3456,
};
const skipped: PathResult = {
  id: 'tokenRefresh-01',
  machine: 'tokenRefresh',
  outcome: 'SKIP',
  detail: 'cannot run in a browser: timers & answers <no person> brings about',
  seconds: 0,
};

const run = { results: [passed, failed, skipped], startedAt: new Date(Date.UTC(2026, 2, 29, 1, 30, 5, 250)), seconds: 20.5 };

describe('the JUnit XML of a run', () => {
  it('is one test suite with the counts of tests, failures, errors and skips, and the time it took', () => {
    const document = parsed(junitXml(run));
    expect(document.documentElement.tagName).toBe('testsuites');
    const suites = document.getElementsByTagName('testsuite');
    expect(suites).toHaveLength(1);
    const counts = { tests: '3', failures: '1', errors: '0', skipped: '1', time: '20.500' };
    expect(attributesOf(suites[0])).toEqual({ name: 'paths', ...counts, timestamp: '2026-03-29T01:30:05' });
    expect(attributesOf(document.documentElement)).toEqual({ name: 'npm run paths', ...counts });
  });

  it('has a test case per path, named by its id under its machine, with its time', () => {
    const cases = [...parsed(junitXml(run)).getElementsByTagName('testcase')];
    expect(cases.map(attributesOf)).toEqual([
      { classname: 'paths.auth', name: 'auth-01', time: '3.200' },
      { classname: 'paths.auth', name: 'auth-07', time: '12.346' },
      { classname: 'paths.tokenRefresh', name: 'tokenRefresh-01', time: '0.000' },
    ]);
    expect(cases[0]!.children).toHaveLength(0);
    expect(attributesOf(cases[2]!.getElementsByTagName('skipped')[0])).toEqual({ message: skipped.detail });
  });

  it("says a failing path's step in the failure's message, its words and screenshot in its text, and attaches the screenshot", () => {
    const testcase = parsed(junitXml(run)).getElementsByTagName('testcase')[1]!;
    const failure = testcase.getElementsByTagName('failure')[0]!;
    expect(failure.getAttribute('message')).toBe(failedDetail);
    expect(failure.textContent).toBe(
      [
        failedDetail,
        "Step 3: type the code the user's authenticator app shows into 'Authentication Code', press 'Verify'",
        "Expected: the portal ('Logout' in the header) shows",
        'Screenshot: test-results/paths/auth-07-step-3.png',
      ].join('\n'),
    );
    expect(testcase.getElementsByTagName('system-out')[0]!.textContent).toBe('[[ATTACHMENT|test-results/paths/auth-07-step-3.png]]');
  });

  it('escapes quotes, angle brackets and ampersands, keeps line breaks in a message, and drops what XML cannot hold', () => {
    const detail = `step 2: expected 'a' & "b" <c> ]]> d\nsecond line\tand a tab, \u001b[31mcoloured\u001b[0m, \uD800 lone`;
    const xml = junitXml({ ...run, results: [{ ...failed, detail, failedStep: undefined, screenshot: undefined }] });
    expect(xml).not.toContain('<c>');
    const testcase = parsed(xml).getElementsByTagName('testcase')[0]!;
    const failure = testcase.getElementsByTagName('failure')[0]!;
    const kept = `step 2: expected 'a' & "b" <c> ]]> d\nsecond line\tand a tab, [31mcoloured[0m,  lone`;
    expect(failure.getAttribute('message')).toBe(kept);
    expect(failure.textContent).toBe(kept);
    expect(testcase.getElementsByTagName('system-out')).toHaveLength(0);
  });
});
