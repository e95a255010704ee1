// What check-api says of an answer the portal's schemas refuse: each problem as the field's JSON
// path, in the names the API should send ('[0].affiliate_ID', '.results[2].amount'), and a short
// reason in a provider's words: a missing key with the keys that were there, the type expected
// and the value sent. A list's items that fail alike are told once, with how many more did.
import type * as z from 'zod/mini';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** How many kinds of problem a line names before it says how many more there are. */
const SHOWN_KINDS = 3;

/** A path as JSON names it: '[0].affiliate_ID'; '' for the answer itself. */
export function jsonPath(path: Path): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

/** The value at `path` in `data`, or undefined where there is none. */
function valueAt(data: unknown, path: Path): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A value as a reason names it: its JSON type, and the value itself where short. */
export function described(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  // Strings, numbers and booleans: what JSON.parse makes of an answer besides null, lists and objects.
  const text = JSON.stringify(value) ?? typeof value;
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An issue of a union whose every alternative refuses the value's type: 'string or number'. */
function unionTypes(issue: z.core.$ZodIssueInvalidUnion): string | null {
  const expected = issue.errors.map((alternative) => {
    const [only] = alternative;
    return alternative.length === 1 && only?.code === 'invalid_type' && only.path.length === 0 ? only.expected : null;
  });
  return expected.every((type) => type !== null) ? expected.join(' or ') : null;
}

/** One problem: where (the full path) and why, the union's closest alternative standing for it. */
function problem(issue: Issue, data: unknown, at: Path = []): { path: Path; reason: string } {
  const path = [...at, ...issue.path];
  const value = valueAt(data, path);
  switch (issue.code) {
    case 'invalid_type': {
      if (value !== undefined) return { path, reason: `expected ${issue.expected}, got ${described(value)}` };
      const holder = valueAt(data, path.slice(0, -1));
      const keys = isObject(holder) ? ` (keys: ${Object.keys(holder).join(', ') || 'none'})` : '';
      return { path, reason: `required, missing${keys}` };
    }
    case 'invalid_union': {
      const types = unionTypes(issue);
      if (types !== null) return { path, reason: `expected ${types}, got ${described(value)}` };
      // The alternative the answer came closest to: the one with the fewest problems.
      const closest = issue.errors.reduce((best, alternative) => (alternative.length < best.length ? alternative : best));
      const [first] = closest;
      return first ? problem(first, data, path) : { path, reason: 'matches none of the forms expected' };
    }
    case 'invalid_value':
      return { path, reason: `expected ${issue.values.map((option) => JSON.stringify(option)).join(' or ')}, got ${described(value)}` };
    case 'custom':
      // The schemas' own words ('Expected a decimal string'), with what came instead.
      return { path, reason: `${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}, got ${described(value)}` };
    default:
      return { path, reason: issue.message };
  }
}

/**
 * A parse's problems in one line: each kind (the same reason at the same path but for a list's
 * index) once, at its first place, with how many more places have it; `where` names the value
 * parsed ('.access claims') when it is not the answer itself.
 */
export function describeIssues(issues: readonly Issue[], data: unknown, where = ''): string {
  const kinds = new Map<string, { text: string; count: number }>();
  for (const issue of issues) {
    const { path, reason } = problem(issue, data);
    const at = `${where}${jsonPath(path)}`;
    const text = at ? `${at}: ${reason}` : reason;
    // Alike: the same path but for a list's index, and the same reason but for the value sent.
    const key = `${jsonPath(path.map((part) => (typeof part === 'number' ? 0 : part)))}: ${reason.replace(/(, got | \(keys: ).*$/, '')}`;
    const kind = kinds.get(key);
    if (kind) kind.count += 1;
    else kinds.set(key, { text, count: 1 });
  }
  const listed = [...kinds.values()];
  const shown = listed.slice(0, SHOWN_KINDS).map(({ text, count }) => (count > 1 ? `${text} (and ${count - 1} more like it)` : text));
  const rest = listed.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more problem${rest === 1 ? '' : 's'}` : shown.join('; ');
}
