// Viewing the portal as an affiliate (superusers only). States:
//   restoring  the tab's choice read back at once (a reload keeps it), or the own view
//   none       the superuser's own view
//   selected   every request carries impersonate_affiliate, cached data is keyed per affiliate
// It runs as a child of the auth machine's signed-in state: signing out ends it, and the keeper
// of the tab's choice (impersonation.actors.ts) forgets the choice as it stops. The session's
// API client reads the selected affiliate from it.
import { assign, sendTo, setup } from 'xstate';
import { keepChoiceInTab } from './impersonation.actors.ts';

export interface ImpersonationContext {
  affiliateId: string | null;
}

export type ImpersonationEvent =
  { type: 'IMPERSONATION.SELECT'; affiliateId: string } | { type: 'IMPERSONATION.RESTORED'; affiliateId: string };

export const impersonationMachine = setup({
  types: {
    context: {} as ImpersonationContext,
    events: {} as ImpersonationEvent,
  },
  actors: { choiceKeeper: keepChoiceInTab },
  guards: {
    hasAffiliate: ({ event }) => event.affiliateId !== '',
  },
  actions: {
    select: assign({ affiliateId: ({ event }) => event.affiliateId }),
    clear: assign({ affiliateId: null }),
    /** The keeper stores the choice for the tab. */
    remember: sendTo('choiceKeeper', ({ event }) => ({ type: 'CHOICE' as const, affiliateId: event.affiliateId })),
  },
}).createMachine({
  id: 'impersonation',
  context: { affiliateId: null },
  invoke: { id: 'choiceKeeper', src: 'choiceKeeper' },
  initial: 'restoring',
  states: {
    restoring: {
      on: {
        'IMPERSONATION.RESTORED': [{ guard: 'hasAffiliate', target: 'selected', actions: 'select' }, { target: 'none' }],
      },
    },
    none: {
      on: {
        'IMPERSONATION.SELECT': {
          guard: 'hasAffiliate',
          target: 'selected',
          actions: ['select', 'remember'],
        },
      },
    },
    selected: {
      on: {
        'IMPERSONATION.SELECT': [
          {
            guard: 'hasAffiliate',
            target: 'selected',
            actions: ['select', 'remember'],
          },
          { target: 'none', actions: ['clear', 'remember'] },
        ],
      },
    },
  },
});

export const selectImpersonatedAffiliate = (snapshot: { context: ImpersonationContext } | undefined) =>
  snapshot?.context.affiliateId ?? null;
