// Path generation on the real machines, which are the models themselves. xstate/graph explores a
// machine by sending it the model's events (user events with sample payloads, the outcomes of its
// invoked actors, its delays) and tells states apart by their serialized value and context.
// getShortestPaths gives the shortest path to every such state; from those, a path is kept when
// it reaches a state node or takes a transition of the definition that no earlier path did, so
// the set stays small enough for each path to become a test. Small machines also get every simple
// path (getSimplePaths) when there are few of them.
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, StateValue } from 'xstate';
import {
  getAdjacencyMap,
  getShortestPaths,
  getSimplePaths,
  serializeSnapshot,
  type AdjacencyMap,
  type AdjacencyValue,
  type TraversalOptions,
} from 'xstate/graph';
import {
  emptyVisit,
  handledEventTypes,
  formatCoverage,
  measureCoverage,
  mergeVisit,
  recordInitial,
  recordStep,
  replayPath,
  type Coverage,
  type MachinePath,
  type Visit,
} from './coverage.ts';

export interface MachineModel {
  /** The machine's id (docs/machines/<id>.md). */
  id: string;
  /** The real machine; side-effect actions may be provided as no-ops, the chart is the same. */
  machine: AnyStateMachine;
  input: unknown;
  /** Every event the machine can meet, with sample payloads; sent where the active states handle it. */
  events: readonly EventObject[];
  /**
   * Events that jump to states the other events reach the usual way (another tab's storage
   * change): paths use them only for what the other events leave uncovered.
   */
  shortcutEvents?: readonly EventObject[];
  /** Include every simple path too, when there are at most this many. */
  simplePathLimit?: number;
  /** Transitions of the definition that no sequence of events can take, and why. */
  unreachableTransitions?: Record<string, string>;
  /** Paths the model's UI suite runs after the generated ones (sample events they leave out). */
  extraPaths?: (generated: ModelPaths) => MachinePath[];
}

export interface ModelPaths {
  model: MachineModel;
  paths: MachinePath[];
  /** How many distinct (value, context) states the traversal found. */
  reachableStates: number;
  /** How many simple paths there are, when the model asked for them; null otherwise. */
  simplePaths: number | null;
  coverage: Coverage;
}

// --- Describing events and states ---------------------------------------------------------

const eventNotes = new WeakMap<EventObject, string>();

/** Gives a sample event a short note for the printed paths ('partial token, totp'). */
export function noted<TEvent extends EventObject>(event: TEvent, note: string): TEvent {
  eventNotes.set(event, note);
  return event;
}

/** The note of an event: the one given with `noted`, else its scalar payload ('code "123456"'). */
export function eventNote(event: EventObject): string {
  const note = eventNotes.get(event);
  if (note !== undefined) return note;
  return Object.entries(event)
    .filter(([key, value]) => key !== 'type' && (typeof value === 'string' || typeof value === 'number' || value === null))
    .map(([key, value]) => `${key} ${JSON.stringify(value)}`)
    .join(', ');
}

/** An event as a string that tells sample payloads apart (errors by name, status and message). */
export function serializeEvent(event: EventObject): string {
  return JSON.stringify(event, (_key, value: unknown) =>
    value instanceof Error ? { ...value, name: value.name, message: value.message } : value,
  );
}

function valueLabel(value: StateValue): string {
  if (typeof value === 'string') return value;
  const entries = Object.entries(value).filter((entry): entry is [string, StateValue] => entry[1] !== undefined);
  const label = ([key, child]: [string, StateValue]) =>
    typeof child === 'object' && Object.keys(child).length === 0 ? key : `${key}.${valueLabel(child)}`;
  if (entries.length === 1) return label(entries[0]!);
  return `{${entries.map(label).join(', ')}}`;
}

/** A snapshot's state value as dotted paths: `signedOut.idle`, `totpSetup.ready.{qrCode.shown, form.idle}`. */
export function stateLabel(snapshot: AnyMachineSnapshot): string {
  const label = valueLabel(snapshot.value as StateValue);
  return snapshot.status === 'active' ? label : `${label} (${snapshot.status})`;
}

/** `1. signedOut.idle --LOGIN.SUBMIT--> signedOut.signingIn`, one line per step of the path. */
export function formatSteps(path: MachinePath): string[] {
  return path.steps.slice(1).map((step, index) => {
    const from = path.steps[index]!.state;
    const note = eventNote(step.event);
    return `${index + 1}. ${stateLabel(from)} --${step.event.type}--> ${stateLabel(step.state)}${note ? `   (${note})` : ''}`;
  });
}

/** A path in one line: its events, for test names. */
export function pathTitle(path: MachinePath): string {
  const events = path.steps.slice(1).map((step) => step.event.type);
  return `${events.join(' → ') || '(initial)'} ⇒ ${stateLabel(path.state)}`;
}

// --- Path ids ----------------------------------------------------------------------------

/**
 * A path's id: the machine's id and the path's place in the order the paths are generated
 * ('auth-07'), the same on every run for a given machine. Test names and `npm run paths` use it.
 */
export function pathId(machineId: string, index: number): string {
  return `${machineId}-${String(index + 1).padStart(2, '0')}`;
}

export interface IdentifiedPath {
  id: string;
  path: MachinePath;
  /** Added by the UI suite (the model's extraPaths) rather than generated. */
  extra: boolean;
}

/** Every path the model's UI suite runs, with its id: the generated ones, then the model's extra ones. */
export function suitePaths(result: ModelPaths): IdentifiedPath[] {
  const extra = result.model.extraPaths?.(result) ?? [];
  return [...result.paths, ...extra].map((path, index) => ({
    id: pathId(result.model.id, index),
    path,
    extra: index >= result.paths.length,
  }));
}

export interface PathStepJson {
  state: string;
  event: string;
  /** The event's sample payload in words ('credentials typed'), when it has one. */
  note?: string;
  nextState: string;
}

export interface PathJson {
  machine: string;
  id: string;
  extra: boolean;
  steps: PathStepJson[];
}

/** A path as `npm run paths -- --json` prints it. */
export function pathJson(machineId: string, { id, path, extra }: IdentifiedPath): PathJson {
  const steps = path.steps.slice(1).map((step, index): PathStepJson => {
    const note = eventNote(step.event);
    return {
      state: stateLabel(path.steps[index]!.state),
      event: step.event.type,
      ...(note ? { note } : {}),
      nextState: stateLabel(step.state),
    };
  });
  return { machine: machineId, id, extra, steps };
}

// --- Generating paths ---------------------------------------------------------------------

/** Of `events`, those the active state nodes have transitions for (as xstate/graph's default does). */
function handledEvents(events: readonly EventObject[]) {
  return (snapshot: AnyMachineSnapshot): EventObject[] => {
    if (snapshot.status !== 'active') return [];
    const handled = handledEventTypes(snapshot);
    return events.filter((event) => handled.has(event.type));
  };
}

/** The options for xstate/graph: all the model's events, or only those that are not shortcuts. */
export function traversalOptions(model: MachineModel, withShortcuts = true): Options {
  const events = withShortcuts ? [...model.events, ...(model.shortcutEvents ?? [])] : model.events;
  return { input: model.input, events: handledEvents(events), serializeState: serializeSnapshot, serializeEvent };
}

type Options = TraversalOptions<AnyMachineSnapshot, EventObject, unknown>;

/** Every reachable (value, context) state, with the state each handled event leads to. */
function adjacencyOf(machine: AnyStateMachine, options: Options): AdjacencyMap<AnyMachineSnapshot, EventObject> {
  return getAdjacencyMap(machine, options) as AdjacencyMap<AnyMachineSnapshot, EventObject>;
}

function adds(visit: Visit, covered: Visit): boolean {
  for (const id of visit.stateNodes) if (!covered.stateNodes.has(id)) return true;
  for (const key of visit.transitions) if (!covered.transitions.has(key)) return true;
  return false;
}

/** Drops every path whose events are the beginning of another path's events. */
function withoutPrefixes(paths: MachinePath[]): MachinePath[] {
  const sequences = paths.map((path) => path.steps.slice(1).map((step) => serializeEvent(step.event)));
  return paths.filter((_, index) => {
    const own = sequences[index]!;
    return !sequences.some(
      (other, otherIndex) =>
        otherIndex !== index &&
        other.length >= own.length &&
        (other.length > own.length || otherIndex > index) &&
        own.every((event, position) => other[position] === event),
    );
  });
}

export function generatePaths(model: MachineModel): ModelPaths {
  const { machine, input } = model;
  const options = traversalOptions(model);
  const adjacency = adjacencyOf(machine, options);

  const selected: MachinePath[] = [];
  const covered = emptyVisit();
  mergeVisit(covered, recordInitial(machine, input).visit);
  const keep = (path: MachinePath) => {
    selected.push(path);
    mergeVisit(covered, replayPath(machine, path, input));
  };

  let simplePaths: number | null = null;
  if (model.simplePathLimit !== undefined) {
    const simple = getSimplePaths(machine, options) as MachinePath[];
    simplePaths = simple.length;
    if (simple.length <= model.simplePathLimit) simple.forEach(keep);
  }

  // Breadth first: the shortest path to each state, then one more step with each event it handles;
  // first without the shortcut events, then with them.
  for (const phase of model.shortcutEvents ? [traversalOptions(model, false), options] : [options]) {
    const phaseAdjacency = phase === options ? adjacency : adjacencyOf(machine, phase);
    const shortest = getShortestPaths(machine, phase) as MachinePath[];
    for (const path of shortest.sort((a, b) => a.weight - b.weight)) {
      if (adds(replayPath(machine, path, input), covered)) keep(path);
      const entry = phaseAdjacency[serializeSnapshot(path.state)];
      for (const { event, state } of Object.values(entry?.transitions ?? {})) {
        if (!adds(recordStep(machine, path.state, event).visit, covered)) continue;
        keep({ state, steps: [...path.steps, { event, state }], weight: path.weight + 1 });
      }
    }
  }

  const paths = withoutPrefixes(selected);
  return {
    model,
    paths,
    reachableStates: Object.keys(adjacency).length,
    simplePaths,
    coverage: measureCoverage(machine, paths, input),
  };
}

/**
 * Everything any sequence of the model's events can visit: every event handled in every reachable
 * (value, context) state. What this leaves out, no path can cover.
 */
export function reachableVisit(model: MachineModel): Visit {
  const adjacency = adjacencyOf(model.machine, traversalOptions(model));
  const visit = recordInitial(model.machine, model.input).visit;
  for (const { state, transitions } of Object.values(adjacency) as AdjacencyValue<AnyMachineSnapshot, EventObject>[]) {
    for (const { event } of Object.values(transitions)) mergeVisit(visit, recordStep(model.machine, state, event).visit);
  }
  return visit;
}

/** The printout of `npm run paths` for one machine. */
export function formatModelPaths(result: ModelPaths, identified: IdentifiedPath[] = suitePaths(result)): string[] {
  const lines: string[] = [`# ${result.model.id}`, ''];
  for (const { id, path, extra } of identified) {
    const added = extra ? ' (added by the UI suite)' : '';
    lines.push(`Path ${id}${added}: ${stateLabel(path.steps[0]!.state)} ⇒ ${stateLabel(path.state)}`);
    lines.push(...formatSteps(path).map((line) => `  ${line}`), '');
  }
  const { states, transitions } = result.coverage;
  const unreachable = result.model.unreachableTransitions ?? {};
  for (const id of states.missing) lines.push(`state not reached: ${id}`);
  for (const key of transitions.missing) {
    const why = unreachable[key];
    lines.push(`transition not taken: ${key}${why ? `\n  (unreachable by design: ${why})` : ''}`);
  }
  lines.push(
    `${result.reachableStates} distinct (value, context) states reachable` +
      (result.simplePaths === null
        ? ''
        : `; ${result.simplePaths} simple paths${result.simplePaths > (result.model.simplePathLimit ?? 0) ? ` (over ${result.model.simplePathLimit}: not used)` : ' (all used)'}`),
  );
  lines.push(`${result.model.id}: ${formatCoverage(result.paths.length, result.coverage)}`, '');
  return lines;
}
