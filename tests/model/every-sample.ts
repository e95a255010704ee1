// The generated paths (paths.ts) cover every state node and transition, but several samples can
// take the same transition (a custom day typed and a custom day cleared both re-check the custom
// range), so some samples are never sent. For a UI each sample is a different user action: a path
// is added for every sample the generated paths leave out (the invite and dashboard suites). The
// sample is sent where it does the most: the shortest path to a state it moves to another state
// node, else to another context, else to a state that merely handles it (an invalid chart mode,
// which must change nothing).
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { getShortestPaths, serializeSnapshot } from 'xstate/graph';
import { handledEventTypes, recordStep, type MachinePath } from './coverage.ts';
import { serializeEvent, traversalOptions, type ModelPaths } from './paths.ts';

const handles = (snapshot: AnyMachineSnapshot, event: EventObject) =>
  snapshot.status === 'active' && handledEventTypes(snapshot).has(event.type);

/** How much sending `event` in `snapshot` does: 2 a new state node, 1 a new context, 0 nothing. */
function effect(before: AnyMachineSnapshot, after: AnyMachineSnapshot): number {
  if (JSON.stringify(before.value) !== JSON.stringify(after.value)) return 2;
  return serializeSnapshot(before) === serializeSnapshot(after) ? 0 : 1;
}

/** The generated paths, then one more for each sample event they never send. */
export function withEverySampleSent(result: ModelPaths): MachinePath[] {
  const { model } = result;
  const paths = [...result.paths];
  const sent = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => serializeEvent(step.event))));
  const shortest = (getShortestPaths(model.machine, traversalOptions(model)) as MachinePath[]).sort((a, b) => a.weight - b.weight);
  for (const event of model.events) {
    if (sent.has(serializeEvent(event))) continue;
    let best: { from: MachinePath; next: AnyMachineSnapshot; effect: number } | null = null;
    for (const from of shortest) {
      if (!handles(from.state, event)) continue;
      const next = recordStep(model.machine, from.state, event).snapshot;
      const made = effect(from.state, next);
      if (!best || made > best.effect) best = { from, next, effect: made };
    }
    if (!best) throw new Error(`No state of ${model.id} handles ${serializeEvent(event)}`);
    const { from, next } = best;
    paths.push({ state: next, steps: [...from.steps, { event, state: next }], weight: from.weight + 1 });
    sent.add(serializeEvent(event));
  }
  return paths;
}
