// The last test of each model-based UI suite: the paths that ran through the page visit every
// state node and take every transition the generated paths do (all of the machine), and the
// figure is printed with the suite's name.
import { expect } from 'vitest';
import { formatCoverage, measureCoverage, type MachinePath } from './coverage.ts';
import type { ModelPaths } from './paths.ts';

export function expectFullCoverage(name: string, generated: ModelPaths, ran: readonly MachinePath[]): void {
  const { model, coverage: all } = generated;
  const covered = measureCoverage(model.machine, ran, model.input);
  process.stdout.write(`${name} UI: ${formatCoverage(ran.length, covered)}\n`);
  expect(covered.states.missing).toEqual([]);
  expect(covered.transitions.missing).toEqual([]);
  expect(covered.states.covered).toBe(all.states.total);
  expect(covered.transitions.covered).toBe(all.transitions.total);
}
