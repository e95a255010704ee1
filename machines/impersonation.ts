// Viewing the portal as an affiliate (superusers only). States:
//   none       the superuser's own view
//   selected   every request carries impersonate_affiliate, cached data is keyed per affiliate
// It runs as a child of the auth machine's signed-in state: signing out ends it, and the next
// session starts in its own view. The session's API client reads the selected affiliate from it.
import { assertEvent, assign, setup } from 'xstate';

export interface ImpersonationContext {
  affiliateId: string | null;
}

export type ImpersonationEvent = { type: 'IMPERSONATION.SELECT'; affiliateId: string };

export const impersonationMachine = setup({
  types: {
    context: {} as ImpersonationContext,
    events: {} as ImpersonationEvent,
  },
  guards: {
    hasAffiliate: ({ event }) => event.type === 'IMPERSONATION.SELECT' && event.affiliateId !== '',
  },
  actions: {
    select: assign({
      affiliateId: ({ event }) => {
        assertEvent(event, 'IMPERSONATION.SELECT');
        return event.affiliateId;
      },
    }),
    clear: assign({ affiliateId: null }),
  },
}).createMachine({
  id: 'impersonation',
  context: { affiliateId: null },
  initial: 'none',
  states: {
    none: {
      on: {
        'IMPERSONATION.SELECT': {
          guard: 'hasAffiliate',
          target: 'selected',
          actions: 'select',
        },
      },
    },
    selected: {
      on: {
        'IMPERSONATION.SELECT': [
          {
            guard: 'hasAffiliate',
            target: 'selected',
            actions: 'select',
          },
          { target: 'none', actions: 'clear' },
        ],
      },
    },
  },
});

export const selectImpersonatedAffiliate = (snapshot: { context: ImpersonationContext } | undefined) =>
  snapshot?.context.affiliateId ?? null;
