// What a set of paths covers of a machine: its state nodes and the transitions of its definition.
// A path is replayed on the real machine with an actor scope that records every microstep the
// machine takes (XState's '@xstate.microstep' inspection event names the transitions taken), so
// eventless transitions and the transient states they leave (routing, checking) count too.
import {
  createEmptyActor,
  getNextTransitions,
  getStateNodes as getActiveStateNodes,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventObject,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { getStateNodes } from 'xstate/graph';

/** One transition of the definition: where it starts, what triggers it, where it goes. */
export interface TransitionInfo {
  /** `source --event--> target[, target]`, or `(none)` for a targetless transition. */
  key: string;
  source: string;
  /** The event type, or 'always' for an eventless transition. */
  event: string;
  targets: string[];
  /** The guards of the branches with this source, event and target ('' when unguarded). */
  guards: string[];
}

/** A step of a path: the event sent and the snapshot it led to (xstate/graph's shape). */
export interface PathStep {
  event: EventObject;
  state: AnyMachineSnapshot;
}

/** What xstate/graph's path generators answer; steps[0] is the initial snapshot ('xstate.init'). */
export interface MachinePath {
  state: AnyMachineSnapshot;
  steps: PathStep[];
  weight: number;
}

export interface Visit {
  /** Ids of the state nodes that were active at some microstep. */
  stateNodes: Set<string>;
  /** Keys (see TransitionInfo) of the transitions taken. */
  transitions: Set<string>;
}

export interface CoverageFigure {
  covered: number;
  total: number;
  missing: string[];
}

export interface Coverage {
  states: CoverageFigure;
  transitions: CoverageFigure;
}

/** Every state node of the machine, the root excluded, in document order. */
export function stateNodesOf(machine: AnyStateMachine): AnyStateNode[] {
  return getStateNodes(machine.root);
}

/** The state nodes a snapshot is in, the root included. */
export function activeStateNodes(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  return [...new Set(getActiveStateNodes(snapshot.machine.root, snapshot.value as StateValue))];
}

/** The event types the active state nodes have transitions for, whatever their guards say. */
export function handledEventTypes(snapshot: AnyMachineSnapshot): Set<string> {
  return new Set(getNextTransitions(snapshot).map((transition) => transition.eventType as string));
}

/** An invoke of the machine: its id (which names its outcome events) and the actor it runs. */
export interface InvokeInfo {
  id: string;
  src: string;
}

/** The invokes of the machine, once per id, in document order; of the active state nodes when a snapshot is given. */
export function invokesOf(source: AnyStateMachine | AnyMachineSnapshot): InvokeInfo[] {
  const nodes = 'root' in source ? stateNodesOf(source) : activeStateNodes(source);
  const byId = new Map<string, InvokeInfo>();
  for (const invoke of nodes.flatMap((node) => node.invoke)) {
    if (!byId.has(invoke.id)) byId.set(invoke.id, { id: invoke.id, src: typeof invoke.src === 'string' ? invoke.src : invoke.id });
  }
  return [...byId.values()];
}

/** A guard as the chart reads: `isCodeBlank`, `!hasDeviceId`, `isStorageCleared && needsEmailCode`. */
export function guardLabel(guard: unknown): string {
  if (guard === undefined || guard === null) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const composite = guard as { name: string; guards?: unknown[] };
    const parts = (composite.guards ?? []).map(guardLabel);
    if (composite.name === 'not' && parts.length === 1) return `!${parts[0]}`;
    if (composite.name === 'and') return parts.join(' && ');
    if (composite.name === 'or') return parts.join(' || ');
    return composite.name || 'guard';
  }
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') {
    // A guard with parameters names them: isMode(last30).
    const params = 'params' in guard && typeof guard.params === 'object' && guard.params !== null ? Object.values(guard.params) : [];
    return params.length > 0 ? `${guard.type}(${params.join(', ')})` : guard.type;
  }
  return 'guard';
}

/** The event type of a transition, 'always' for an eventless one. */
function eventOf(transition: AnyTransitionDefinition): string {
  const type = transition.eventType as string;
  return type === '' ? 'always' : type;
}

function targetsOf(transition: AnyTransitionDefinition): string[] {
  return (transition.target ?? []).map((node: AnyStateNode) => node.id);
}

/** The key of a transition definition: its source node, event type and targets. */
export function transitionKey(transition: AnyTransitionDefinition): string {
  const targets = targetsOf(transition);
  return `${transition.source.id} --${eventOf(transition)}--> ${targets.length > 0 ? targets.join(', ') : '(none)'}`;
}

/** The transitions a state node defines: on, after, invoke onDone/onError, then always. */
export function ownTransitions(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

/** Every (source, event, target) of the machine definition, once each, in document order. */
export function transitionsOf(machine: AnyStateMachine): TransitionInfo[] {
  const byKey = new Map<string, TransitionInfo>();
  for (const node of [machine.root, ...stateNodesOf(machine)]) {
    for (const transition of ownTransitions(node)) {
      const key = transitionKey(transition);
      const info = byKey.get(key);
      const guard = guardLabel(transition.guard);
      if (info) {
        info.guards.push(guard);
        continue;
      }
      byKey.set(key, {
        key,
        source: transition.source.id,
        event: eventOf(transition),
        targets: targetsOf(transition),
        guards: [guard],
      });
    }
  }
  return [...byKey.values()];
}

export function emptyVisit(): Visit {
  return { stateNodes: new Set(), transitions: new Set() };
}

export function mergeVisit(into: Visit, from: Visit): Visit {
  for (const id of from.stateNodes) into.stateNodes.add(id);
  for (const key of from.transitions) into.transitions.add(key);
  return into;
}

type MachineScope = Parameters<AnyStateMachine['transition']>[2];

/** An actor scope like xstate's own inert one (actions are not executed), recording microsteps. */
function recordingScope(visit: Visit): MachineScope {
  const self = createEmptyActor();
  self.system.inspect((event: InspectionEvent) => {
    // Invoked children live in the same system: their microsteps are not this machine's.
    if (event.type !== '@xstate.microstep' || event.actorRef !== self) return;
    for (const node of activeStateNodes(event.snapshot as AnyMachineSnapshot)) visit.stateNodes.add(node.id);
    for (const transition of event._transitions) {
      visit.stateNodes.add(transition.source.id);
      visit.transitions.add(transitionKey(transition));
    }
  });
  return {
    self,
    id: '',
    sessionId: '',
    logger: () => {},
    defer: () => {},
    emit: () => {},
    stopChild: () => {},
    system: self.system,
    actionExecutor: () => {},
  } as unknown as MachineScope;
}

function addActive(visit: Visit, snapshot: AnyMachineSnapshot): void {
  for (const node of activeStateNodes(snapshot)) visit.stateNodes.add(node.id);
}

/** The initial snapshot for `input`, and what reaching it visited. */
export function recordInitial(machine: AnyStateMachine, input: unknown): { snapshot: AnyMachineSnapshot; visit: Visit } {
  const visit = emptyVisit();
  const snapshot = machine.getInitialSnapshot(recordingScope(visit), input) as AnyMachineSnapshot;
  addActive(visit, snapshot);
  return { snapshot, visit };
}

/** The snapshot `event` leads to from `snapshot`, and what the step visited. */
export function recordStep(
  machine: AnyStateMachine,
  snapshot: AnyMachineSnapshot,
  event: EventObject,
): { snapshot: AnyMachineSnapshot; visit: Visit } {
  const visit = emptyVisit();
  const next = machine.transition(snapshot, event, recordingScope(visit)) as AnyMachineSnapshot;
  addActive(visit, next);
  return { snapshot: next, visit };
}

/** Replays a path's events on the machine from its initial snapshot, recording what it visits. */
export function replayPath(machine: AnyStateMachine, path: MachinePath, input: unknown): Visit {
  const initial = recordInitial(machine, input);
  const visit = initial.visit;
  let snapshot = initial.snapshot;
  for (const step of path.steps.slice(1)) {
    const next = recordStep(machine, snapshot, step.event);
    mergeVisit(visit, next.visit);
    snapshot = next.snapshot;
  }
  return visit;
}

/** The state nodes and transitions of the machine that the paths visit, against all of them. */
export function measureCoverage(machine: AnyStateMachine, paths: readonly MachinePath[], input: unknown): Coverage {
  const visit = emptyVisit();
  for (const path of paths) mergeVisit(visit, replayPath(machine, path, input));
  const nodes = stateNodesOf(machine).map((node) => node.id);
  const transitions = transitionsOf(machine).map((transition) => transition.key);
  const figure = (all: string[], seen: Set<string>): CoverageFigure => {
    const missing = all.filter((id) => !seen.has(id));
    return { covered: all.length - missing.length, total: all.length, missing };
  };
  return { states: figure(nodes, visit.stateNodes), transitions: figure(transitions, visit.transitions) };
}

const percent = (figure: CoverageFigure) => (figure.total === 0 ? 100 : (100 * figure.covered) / figure.total).toFixed(1);

/** "N paths; states covered X/Y (Z%); transitions covered A/B (C%)". */
export function formatCoverage(pathCount: number, coverage: Coverage): string {
  const { states, transitions } = coverage;
  return (
    `${pathCount} paths; states covered ${states.covered}/${states.total} (${percent(states)}%); ` +
    `transitions covered ${transitions.covered}/${transitions.total} (${percent(transitions)}%)`
  );
}
