// What the benches share to read their options and print their figures.

/** The value after `--name` on the command line, if given. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export const number = new Intl.NumberFormat('en-US');
export const ms = (value: number) => `${number.format(Math.round(value))} ms`;
/** Whether a goal is met: ✔ or ✘. */
export const mark = (met: boolean) => (met ? '✔' : '✘');

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median and, with more than one run, the range: '812 ms (790–850)'. */
export function spread(values: number[]): string {
  if (values.length < 2) return ms(median(values));
  return `${ms(median(values))} (${number.format(Math.round(Math.min(...values)))}–${number.format(Math.round(Math.max(...values)))})`;
}
