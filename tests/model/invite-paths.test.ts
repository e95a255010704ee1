// The invite registration paths (tests/model/invite-paths.ts) must visit every state node and take
// every transition of the machine, and the UI suite's extra paths must send every sample event.
import { describe, expect, it } from 'vitest';
import { inviteRegistrationMachine } from '../../machines/invite-registration.ts';
import { stateNodesOf, transitionsOf, type MachinePath } from './coverage.ts';
import { withEverySampleSent } from './every-sample.ts';
import { inviteModel, invitePaths } from './invite-paths.ts';
import { reachableVisit, serializeEvent, suitePaths } from './paths.ts';

// One clock for the file: the sample token's expiry is part of the event, and a second model
// minted later (a slow file load) would hold another token.
const now = Date.now();
const generated = invitePaths(now);

describe('invite registration paths', () => {
  it('visit every state node and take every transition of the machine', () => {
    expect(generated.coverage.states.missing).toEqual([]);
    expect(generated.coverage.states.covered).toBe(stateNodesOf(inviteRegistrationMachine).length);
    expect(generated.coverage.transitions.missing).toEqual([]);
    expect(generated.coverage.transitions.covered).toBe(transitionsOf(inviteRegistrationMachine).length);
    expect(reachableVisit(inviteModel(now)).transitions.size).toBe(generated.coverage.transitions.covered);
  });

  it('with the extra paths of the UI suite, send every sample event of the model at least once', () => {
    const paths = withEverySampleSent(generated);
    const sent = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => serializeEvent(step.event))));
    for (const event of inviteModel(now).events) expect(sent, serializeEvent(event)).toContain(serializeEvent(event));
    expect(paths.slice(0, generated.paths.length)).toEqual(generated.paths);
    const eventsOf = (path: MachinePath) => path.steps.slice(1).map((step) => serializeEvent(step.event));
    expect(suitePaths(generated).map(({ path }) => eventsOf(path))).toEqual(paths.map(eventsOf));
  });

  it.each(suitePaths(generated).flatMap(({ id, path, extra }) => (extra ? [[id, path] as const] : [])))(
    '%s, an extra path, ends with its sample, sent where the machine handles it',
    (_id, path) => {
      const last = path.steps.at(-1)!;
      const before = path.steps.at(-2)!.state;
      expect(before.can(last.event)).toBe(true);
      expect(last.state).toBe(path.state);
    },
  );
});
