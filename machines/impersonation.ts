// Viewing the portal as an affiliate (superusers only). States:
//   none       the superuser's own view
//   selected   every request carries impersonate_affiliate, cached data is keyed per affiliate
// The session's API client reads the selected affiliate from this machine's state.
import { assertEvent, assign, setup } from 'xstate';

export interface ImpersonationContext {
  affiliateId: string | null;
}

export type ImpersonationEvent = { type: 'IMPERSONATION.SELECT'; affiliateId: string } | { type: 'IMPERSONATION.CLEAR' };

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
        'IMPERSONATION.CLEAR': { target: 'none', actions: 'clear' },
      },
    },
  },
});

export const selectImpersonatedAffiliate = (snapshot: { context: ImpersonationContext }) => snapshot.context.affiliateId;
