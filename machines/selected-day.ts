// The dashboard's selected day (spec sections 2 and 4). States:
//   none       no day selected: the tables show the whole range
//   selected   one day: clicking its bar again, empty chart space, or a change of range or
//              affiliate clears it; clicking another bar selects that day
import { assertEvent, assign, setup } from 'xstate';

export interface SelectedDayContext {
  /** The selected local day, 'yyyy-MM-dd'. */
  day: string | null;
}

export type SelectedDayEvent = { type: 'DAY.TOGGLE'; day: string } | { type: 'DAY.CLEAR' };

export const selectedDayMachine = setup({
  types: {
    context: {} as SelectedDayContext,
    events: {} as SelectedDayEvent,
  },
  guards: {
    isSelectedDay: ({ context, event }) => event.type === 'DAY.TOGGLE' && event.day === context.day,
  },
  actions: {
    selectDay: assign({
      day: ({ event }) => {
        assertEvent(event, 'DAY.TOGGLE');
        return event.day;
      },
    }),
    clearDay: assign({ day: null }),
  },
}).createMachine({
  id: 'selectedDay',
  context: { day: null },
  initial: 'none',
  states: {
    none: {
      on: { 'DAY.TOGGLE': { target: 'selected', actions: 'selectDay' } },
    },
    selected: {
      on: {
        'DAY.TOGGLE': [
          { guard: 'isSelectedDay', target: 'none', actions: 'clearDay' },
          { target: 'selected', actions: 'selectDay' },
        ],
        'DAY.CLEAR': { target: 'none', actions: 'clearDay' },
      },
    },
  },
});
