// The password rules a Django back end applies by default, in its order and with its messages:
// not too similar to the user's e-mail address, at least 8 characters, not a common password,
// not entirely numeric. Registration answers every rule that fails.
export const MIN_PASSWORD_LENGTH = 8;
/** Django's longest password field: a longer one is refused, not hashed. */
export const MAX_PASSWORD_LENGTH = 128;
/** Django's UserAttributeSimilarityValidator refuses a similarity ratio of 0.7 or more. */
const MAX_SIMILARITY = 0.7;

export const passwordMessages = {
  similar: 'The password is too similar to the email.',
  short: `This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`,
  common: 'This password is too common.',
  numeric: 'This password is entirely numeric.',
} as const;

/** zxcvbn's list of common passwords (about 49,000, lower case), loaded on first use (~0.1 s). */
let commonPasswords: Promise<Set<string>> | undefined;
async function isCommon(password: string): Promise<boolean> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common']));
  // Python's str.strip(): whitespace at either end.
  return (await commonPasswords).has(password.toLowerCase().replace(/^\s+|\s+$/gu, ''));
}

/**
 * difflib's SequenceMatcher(a, b).quick_ratio(): twice the number of characters the two have in
 * common (as multisets) over their total length; an upper bound of ratio(), and what Django uses.
 */
export function quickRatio(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const available = new Map<string, number>();
  for (const char of right) available.set(char, (available.get(char) ?? 0) + 1);
  let matches = 0;
  for (const char of left) {
    const count = available.get(char) ?? 0;
    available.set(char, count - 1);
    if (count > 0) matches += 1;
  }
  const length = left.length + right.length;
  return length === 0 ? 1 : (2 * matches) / length;
}

/** Django skips a value so much shorter than the password that it cannot reach the ratio. */
function exceedsMaximumLengthRatio(password: string, value: string): boolean {
  const passwordLength = Array.from(password).length;
  const valueLength = Array.from(value).length;
  return passwordLength >= 10 * valueLength && valueLength < (MAX_SIMILARITY / 2) * passwordLength;
}

/** The e-mail address and its parts between non-word characters, as Python's re.split(r'\W+'). */
function parts(value: string): string[] {
  return [...value.split(/[^\p{L}\p{N}_]+/u), value];
}

function tooSimilar(password: string, email: string): boolean {
  const lowered = password.toLowerCase();
  return parts(email.toLowerCase()).some(
    (part) => !exceedsMaximumLengthRatio(lowered, part) && quickRatio(lowered, part) >= MAX_SIMILARITY,
  );
}

/** Every rule the password breaks for an account with this e-mail address, in Django's order. */
export async function passwordProblems(password: string, user: { email: string }): Promise<string[]> {
  const problems: string[] = [];
  if (user.email !== '' && tooSimilar(password, user.email)) problems.push(passwordMessages.similar);
  if (Array.from(password).length < MIN_PASSWORD_LENGTH) problems.push(passwordMessages.short);
  if (await isCommon(password)) problems.push(passwordMessages.common);
  if (/^\p{Nd}+$/u.test(password)) problems.push(passwordMessages.numeric);
  return problems;
}
