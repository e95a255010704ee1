// The dashboard's chart mode (spec sections 2, 4 and 5). States:
//   fees    Fees Chart: Referral Fees and Connection Fees per day (the default)
//   sales   Sales Chart: Direct Sales and Platform Sales per day
// "Chart selection must be fees or sales": any other value is rejected and changes nothing.
import { setup } from 'xstate';

export type ChartMode = 'fees' | 'sales';

export type ChartModeEvent = { type: 'CHART.SELECT'; mode: string };

export const chartModeMachine = setup({
  types: {
    events: {} as ChartModeEvent,
  },
  guards: {
    isFees: ({ event }) => event.mode === 'fees',
    isSales: ({ event }) => event.mode === 'sales',
  },
}).createMachine({
  id: 'chartMode',
  initial: 'fees',
  on: {
    'CHART.SELECT': [
      { guard: 'isFees', target: '.fees' },
      { guard: 'isSales', target: '.sales' },
    ],
  },
  states: {
    fees: {},
    sales: {},
  },
});

export function selectChartMode(snapshot: { matches(value: ChartMode): boolean }): ChartMode {
  return snapshot.matches('sales') ? 'sales' : 'fees';
}
