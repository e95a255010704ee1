// The generated paths (tests/model/*-paths.ts) must visit every state node and take every
// transition of the machines, so that the model-based suite built on them checks all of the chart.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { authMachine } from '../../machines/auth.ts';
import { tokenRefreshMachine } from '../../machines/token-refresh.ts';
import { authModel, authUnreachableTransitions } from './auth-paths.ts';
import { measureCoverage, stateNodesOf, transitionsOf } from './coverage.ts';
import { generatePaths, pathId, reachableVisit, type MachineModel } from './paths.ts';
import { tokenRefreshModel } from './token-refresh-paths.ts';

const now = Date.now();
// The machines' guards read Date.now() against the sample tokens minted from `now`: the clock
// stands still for this file, which takes minutes on a loaded machine (a 5 minute token expired).
vi.useFakeTimers({ toFake: ['Date'] });
vi.setSystemTime(now);

/** The snapshot the events lead to, by xstate's pure transition functions. */
function replay(model: MachineModel, events: readonly EventObject[]): AnyMachineSnapshot {
  const machine: AnyStateMachine = model.machine;
  let snapshot: AnyMachineSnapshot = initialTransition(machine, model.input)[0] as AnyMachineSnapshot;
  for (const event of events) snapshot = transition(machine, snapshot, event)[0] as AnyMachineSnapshot;
  return snapshot;
}
const auth = generatePaths(authModel(now));
const tokenRefresh = generatePaths(tokenRefreshModel(now));

describe('auth paths', () => {
  it('visit every state node of the auth machine', () => {
    expect(auth.coverage.states.missing).toEqual([]);
    expect(auth.coverage.states.covered).toBe(stateNodesOf(authMachine).length);
  });

  it('take every transition of the auth machine', () => {
    expect(authUnreachableTransitions).toEqual({});
    expect(auth.coverage.transitions.missing).toEqual([]);
    expect(auth.coverage.transitions.total).toBe(transitionsOf(authMachine).length);
  });

  it('leave out only what no sequence of events reaches', () => {
    const everything = reachableVisit(authModel(now));
    for (const key of Object.keys(authUnreachableTransitions)) expect(everything.transitions.has(key)).toBe(false);
    expect(everything.transitions.size).toBe(auth.coverage.transitions.covered);
  });
});

describe('the auth model', () => {
  it('has a done and an error outcome for every invoke of the machine, and none for an invoke it lacks', () => {
    const invokeIds = new Set(stateNodesOf(authMachine).flatMap((node) => node.invoke.map((invoke) => invoke.id)));
    // The child machines (token refresh, impersonation) have models of their own.
    invokeIds.delete('tokenRefresh');
    invokeIds.delete('impersonation');
    const types = new Set(authModel(now).events.map((event) => event.type));
    for (const id of invokeIds) {
      expect(types).toContain(`xstate.done.actor.${id}`);
      expect(types).toContain(`xstate.error.actor.${id}`);
    }
    const outcomeIds = [...types].flatMap((type) => /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(type)?.[1] ?? []);
    expect(new Set(outcomeIds)).toEqual(invokeIds);
  });
});

describe('token refresh paths', () => {
  it('visit every state node and take every transition', () => {
    expect(tokenRefresh.coverage.states.missing).toEqual([]);
    expect(tokenRefresh.coverage.transitions.missing).toEqual([]);
    expect(tokenRefresh.coverage.states.total).toBe(stateNodesOf(tokenRefreshMachine).length);
    expect(tokenRefresh.coverage.transitions.total).toBe(transitionsOf(tokenRefreshMachine).length);
  });
});

describe.each([
  ['auth', authModel(now), auth.paths],
  ['tokenRefresh', tokenRefreshModel(now), tokenRefresh.paths],
] as const)('%s paths as event sequences', (_, model: MachineModel, paths) => {
  it.each(paths.map((path, index) => [pathId(model.id, index), path] as const))(
    '%s leads, replayed one event at a time, to the state it ends in',
    (_id, path) => {
      const snapshot = replay(
        model,
        path.steps.slice(1).map((step) => step.event),
      );
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
    },
  );
});

describe('coverage helpers', () => {
  it('count the delayed, invoked and eventless transitions of the definition', () => {
    const keys = transitionsOf(tokenRefreshMachine).map((transition) => transition.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'tokenRefresh --TOKEN.UPDATED--> tokenRefresh.checking',
        'tokenRefresh.checking --always--> tokenRefresh.refreshing',
        'tokenRefresh.checking --always--> tokenRefresh.scheduled',
        'tokenRefresh.scheduled --xstate.after.refreshDelay.tokenRefresh.scheduled--> tokenRefresh.refreshing',
        'tokenRefresh.refreshing --xstate.done.actor.refresh--> tokenRefresh.scheduled',
        'tokenRefresh.refreshing --xstate.error.actor.refresh--> tokenRefresh.failed',
      ]),
    );
  });

  it('report what a single path leaves out', () => {
    const [first] = auth.paths;
    const partial = measureCoverage(authMachine, first ? [first] : [], { token: null });
    expect(partial.states.covered).toBeLessThan(partial.states.total);
    expect(partial.states.missing).toContain('auth.authenticated.restoring');
    expect(partial.transitions.missing).toContain('auth.authenticated --SESSION.EXPIRED--> auth.signedOut.ended');
  });
});
