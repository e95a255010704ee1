import { describe, expect, it } from 'vitest';
import { chartKeyAction, type DrawnBars } from './chart-keys.ts';

// Five days of two series (series 0 drawn at the bottom): day 0 only series 1, day 1 both, day 2
// nothing (zero amounts), day 3 only series 0, day 4 both.
const drawn: DrawnBars = [
  [false, true],
  [true, true],
  [false, false],
  [true, false],
  [true, true],
];

const focusOn = (day: number, series: number) => ({ type: 'focus', cell: { day, series } });

describe("the chart's keyboard rules", () => {
  it('moves between days with Left and Right, skipping days without bars and keeping the series where it can', () => {
    expect(chartKeyAction('ArrowRight', { day: 1, series: 1 }, drawn)).toEqual(focusOn(3, 0));
    expect(chartKeyAction('ArrowRight', { day: 3, series: 0 }, drawn)).toEqual(focusOn(4, 0));
    expect(chartKeyAction('ArrowLeft', { day: 4, series: 1 }, drawn)).toEqual(focusOn(3, 0));
    expect(chartKeyAction('ArrowLeft', { day: 3, series: 0 }, drawn)).toEqual(focusOn(1, 0));
    expect(chartKeyAction('ArrowLeft', { day: 1, series: 0 }, drawn)).toEqual(focusOn(0, 1));
  });

  it('stays on the bar at either end', () => {
    expect(chartKeyAction('ArrowLeft', { day: 0, series: 1 }, drawn)).toEqual(focusOn(0, 1));
    expect(chartKeyAction('ArrowRight', { day: 4, series: 1 }, drawn)).toEqual(focusOn(4, 1));
    expect(chartKeyAction('ArrowUp', { day: 1, series: 1 }, drawn)).toEqual(focusOn(1, 1));
    expect(chartKeyAction('ArrowDown', { day: 0, series: 1 }, drawn)).toEqual(focusOn(0, 1));
  });

  it('moves between the series of a day with Up and Down', () => {
    expect(chartKeyAction('ArrowUp', { day: 1, series: 0 }, drawn)).toEqual(focusOn(1, 1));
    expect(chartKeyAction('ArrowDown', { day: 1, series: 1 }, drawn)).toEqual(focusOn(1, 0));
    expect(chartKeyAction('ArrowUp', { day: 3, series: 0 }, drawn)).toEqual(focusOn(3, 0));
  });

  it('jumps to the first and last day with bars with Home and End', () => {
    expect(chartKeyAction('Home', { day: 4, series: 0 }, drawn)).toEqual(focusOn(0, 1));
    expect(chartKeyAction('End', { day: 0, series: 1 }, drawn)).toEqual(focusOn(4, 1));
    expect(chartKeyAction('End', { day: 1, series: 0 }, [[true], [true], [false]])).toEqual(focusOn(1, 0));
  });

  it('selects the focused day with Enter or Space and clears it with Escape', () => {
    expect(chartKeyAction('Enter', { day: 1, series: 0 }, drawn)).toEqual({ type: 'toggle' });
    expect(chartKeyAction(' ', { day: 1, series: 0 }, drawn)).toEqual({ type: 'toggle' });
    expect(chartKeyAction('Escape', { day: 1, series: 0 }, drawn)).toEqual({ type: 'clear' });
  });

  it('leaves other keys, Tab among them, to the browser', () => {
    expect(chartKeyAction('Tab', { day: 1, series: 0 }, drawn)).toBeNull();
    expect(chartKeyAction('a', { day: 1, series: 0 }, drawn)).toBeNull();
  });
});
