// A machine's actor for one test: started now, stopped when the test finishes, with `until` to wait
// (up to a second) for the first snapshot a predicate accepts.
import { onTestFinished } from 'vitest';
import { createActor, waitFor, type ActorOptions, type AnyActorLogic, type SnapshotFrom } from 'xstate';

export function startTestActor<TLogic extends AnyActorLogic>(logic: TLogic, options?: ActorOptions<TLogic>) {
  const actor = createActor(logic, options).start();
  onTestFinished(() => {
    actor.stop();
  });
  return {
    actor,
    until: (predicate: (snapshot: SnapshotFrom<TLogic>) => boolean) => waitFor(actor, predicate, { timeout: 1000 }),
  };
}
