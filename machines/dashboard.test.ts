import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { chartModeMachine, selectChartMode } from './chart-mode.ts';
import { dashboardMachine } from './dashboard.ts';
import { dateRangeMachine, selectDateMode } from './date-range.ts';
import { impersonationMachine, selectImpersonatedAffiliate } from './impersonation.ts';
import { selectedDayMachine } from './selected-day.ts';

const started = <T extends Parameters<typeof createActor>[0]>(machine: T) => createActor(machine).start();

describe('date mode', () => {
  it('starts at Last 30 days (spec: "last30 (default)")', () => {
    expect(selectDateMode(started(dateRangeMachine).getSnapshot())).toBe('last30');
  });

  it('switches between the four modes', () => {
    const actor = started(dateRangeMachine);
    for (const mode of ['current', 'previous', 'custom', 'last30'] as const) {
      actor.send({ type: 'RANGE.SELECT', mode });
      expect(selectDateMode(actor.getSnapshot())).toBe(mode);
    }
  });

  it('keeps a custom range incomplete until both days are chosen ("incomplete custom falls back to current month")', () => {
    const actor = started(dateRangeMachine);
    actor.send({ type: 'RANGE.SELECT', mode: 'custom' });
    expect(actor.getSnapshot().matches({ custom: 'incomplete' })).toBe(true);
    actor.send({ type: 'RANGE.CUSTOM_START', day: '2026-11-02' });
    expect(actor.getSnapshot().matches({ custom: 'incomplete' })).toBe(true);
    actor.send({ type: 'RANGE.CUSTOM_END', day: '2026-11-09' });
    expect(actor.getSnapshot().matches({ custom: 'complete' })).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ customStart: '2026-11-02', customEnd: '2026-11-09' });
    actor.send({ type: 'RANGE.CUSTOM_END', day: '' });
    expect(actor.getSnapshot().matches({ custom: 'incomplete' })).toBe(true);
  });
});

describe('selected day', () => {
  it('selects a clicked day, clears it when clicked again, and moves to another clicked day', () => {
    const actor = started(selectedDayMachine);
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    expect(actor.getSnapshot().context.day).toBe('2026-11-05');
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-06' });
    expect(actor.getSnapshot().context.day).toBe('2026-11-06');
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-06' });
    expect(actor.getSnapshot().matches('none')).toBe(true);
    expect(actor.getSnapshot().context.day).toBeNull();
  });

  it('clears on empty chart space', () => {
    const actor = started(selectedDayMachine);
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    actor.send({ type: 'DAY.CLEAR' });
    expect(actor.getSnapshot().matches('none')).toBe(true);
  });
});

describe('chart mode', () => {
  it('is fees or sales, and rejects anything else ("Chart selection must be fees or sales")', () => {
    const actor = started(chartModeMachine);
    expect(selectChartMode(actor.getSnapshot())).toBe('fees');
    actor.send({ type: 'CHART.SELECT', mode: 'sales' });
    expect(selectChartMode(actor.getSnapshot())).toBe('sales');
    actor.send({ type: 'CHART.SELECT', mode: 'pie' });
    expect(selectChartMode(actor.getSnapshot())).toBe('sales');
    actor.send({ type: 'CHART.SELECT', mode: 'fees' });
    expect(selectChartMode(actor.getSnapshot())).toBe('fees');
  });
});

describe('the dashboard', () => {
  const dayOf = (actor: ReturnType<typeof started<typeof dashboardMachine>>) =>
    actor.getSnapshot().children.selectedDay?.getSnapshot().context.day;

  it('clears the selected day when the date range changes ("cleared when the date range or affiliate changes")', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    expect(dayOf(actor)).toBe('2026-11-05');
    actor.send({ type: 'RANGE.SELECT', mode: 'current' });
    expect(dayOf(actor)).toBeNull();
    expect(selectDateMode(actor.getSnapshot().children.dateRange!.getSnapshot())).toBe('current');
  });

  it('clears the selected day when the affiliate changes, and keeps the chart mode', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'CHART.SELECT', mode: 'sales' });
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    actor.send({ type: 'AFFILIATE.CHANGED' });
    expect(dayOf(actor)).toBeNull();
    expect(selectChartMode(actor.getSnapshot().children.chartMode!.getSnapshot())).toBe('sales');
  });
});

describe('impersonation', () => {
  it('selects an affiliate to view as, switches, and returns to the own view', () => {
    const actor = started(impersonationMachine);
    expect(selectImpersonatedAffiliate(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'AFF-100' });
    expect(selectImpersonatedAffiliate(actor.getSnapshot())).toBe('AFF-100');
    actor.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'AFF-200' });
    expect(selectImpersonatedAffiliate(actor.getSnapshot())).toBe('AFF-200');
    actor.send({ type: 'IMPERSONATION.SELECT', affiliateId: '' });
    expect(actor.getSnapshot().matches('none')).toBe(true);
    actor.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'AFF-100' });
    actor.send({ type: 'IMPERSONATION.CLEAR' });
    expect(selectImpersonatedAffiliate(actor.getSnapshot())).toBeNull();
  });
});
