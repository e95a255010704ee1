// The dashboard's date mode (spec sections 2 and 4, decisions.md section 3). States:
//   last30     Last 30 days (the default)
//   current    Current Month
//   previous   Previous Month
//   custom     Custom Date Range: incomplete (a day missing: the range is the current month)
//              or complete (start and end chosen)
// The range itself is derived from the state by src/domain/dates.ts (dateRange).
import { assertEvent, assign, setup } from 'xstate';

export type DateMode = 'last30' | 'current' | 'previous' | 'custom';

export interface DateRangeContext {
  /** The custom mode's days, 'yyyy-MM-dd' as a date input gives them; '' while not chosen. */
  customStart: string;
  customEnd: string;
}

export type DateRangeEvent =
  | { type: 'RANGE.SELECT'; mode: DateMode }
  | { type: 'RANGE.CUSTOM_START'; day: string }
  | { type: 'RANGE.CUSTOM_END'; day: string };

const isDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day);

export const dateRangeMachine = setup({
  types: {
    context: {} as DateRangeContext,
    events: {} as DateRangeEvent,
  },
  guards: {
    isLast30: ({ event }) => event.type === 'RANGE.SELECT' && event.mode === 'last30',
    isCurrent: ({ event }) => event.type === 'RANGE.SELECT' && event.mode === 'current',
    isPrevious: ({ event }) => event.type === 'RANGE.SELECT' && event.mode === 'previous',
    isCustom: ({ event }) => event.type === 'RANGE.SELECT' && event.mode === 'custom',
    hasBothDays: ({ context }) => isDay(context.customStart) && isDay(context.customEnd),
  },
  actions: {
    setCustomStart: assign({
      customStart: ({ event }) => {
        assertEvent(event, 'RANGE.CUSTOM_START');
        return isDay(event.day) ? event.day : '';
      },
    }),
    setCustomEnd: assign({
      customEnd: ({ event }) => {
        assertEvent(event, 'RANGE.CUSTOM_END');
        return isDay(event.day) ? event.day : '';
      },
    }),
  },
}).createMachine({
  id: 'dateRange',
  context: { customStart: '', customEnd: '' },
  initial: 'last30',
  on: {
    'RANGE.SELECT': [
      { guard: 'isLast30', target: '.last30' },
      { guard: 'isCurrent', target: '.current' },
      { guard: 'isPrevious', target: '.previous' },
      { guard: 'isCustom', target: '.custom' },
    ],
  },
  states: {
    last30: {},
    current: {},
    previous: {},
    custom: {
      initial: 'checking',
      on: {
        'RANGE.CUSTOM_START': { target: '.checking', actions: 'setCustomStart' },
        'RANGE.CUSTOM_END': { target: '.checking', actions: 'setCustomEnd' },
      },
      states: {
        checking: {
          always: [{ guard: 'hasBothDays', target: 'complete' }, { target: 'incomplete' }],
        },
        incomplete: {},
        complete: {},
      },
    },
  },
});

type DateRangeSnapshot = { matches(value: DateMode): boolean };

/** The mode the state stands for. */
export function selectDateMode(snapshot: DateRangeSnapshot): DateMode {
  const modes: DateMode[] = ['last30', 'current', 'previous', 'custom'];
  return modes.find((mode) => snapshot.matches(mode)) ?? 'last30';
}
