import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { dashboardMachine, selectChartMode, selectDateMode, selectIsRangeRefused, selectSelectedDay, selectView } from './dashboard.ts';
import { impersonationMachine, selectImpersonatedAffiliate } from './impersonation.ts';

const started = <T extends Parameters<typeof createActor>[0]>(machine: T) => createActor(machine).start();

describe('date mode', () => {
  it('starts at Last 30 days (the default)', () => {
    expect(selectDateMode(started(dashboardMachine).getSnapshot())).toBe('last30');
  });

  it('switches between the four modes', () => {
    const actor = started(dashboardMachine);
    for (const mode of ['current', 'previous', 'custom', 'last30'] as const) {
      actor.send({ type: 'RANGE.SELECT', mode });
      expect(selectDateMode(actor.getSnapshot())).toBe(mode);
    }
  });

  it('keeps a custom range incomplete until both days are chosen (the current month is shown until then)', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'RANGE.SELECT', mode: 'custom' });
    expect(actor.getSnapshot().matches({ range: { custom: 'incomplete' } })).toBe(true);
    actor.send({ type: 'RANGE.CUSTOM_START', day: '2026-11-02' });
    expect(actor.getSnapshot().matches({ range: { custom: 'incomplete' } })).toBe(true);
    actor.send({ type: 'RANGE.CUSTOM_END', day: '2026-11-09' });
    expect(actor.getSnapshot().matches({ range: { custom: 'complete' } })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ customStart: '2026-11-02', customEnd: '2026-11-09' });
    actor.send({ type: 'RANGE.CUSTOM_END', day: '' });
    expect(actor.getSnapshot().matches({ range: { custom: 'incomplete' } })).toBe(true);
  });

  it('refuses a custom range of more than 731 days, or one starting before 2000-01-01, and leaves it out of the view', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'RANGE.SELECT', mode: 'custom' });
    actor.send({ type: 'RANGE.CUSTOM_START', day: '2024-01-01' });
    actor.send({ type: 'RANGE.CUSTOM_END', day: '2025-12-31' }); // 731 days, a leap day among them
    expect(actor.getSnapshot().matches({ range: { custom: 'complete' } })).toBe(true);

    actor.send({ type: 'RANGE.CUSTOM_END', day: '2026-01-01' }); // 732 days
    expect(selectIsRangeRefused(actor.getSnapshot())).toBe(true);
    expect(selectView(actor.getSnapshot())).toMatchObject({ mode: 'custom', start: '', end: '' });
    // The days typed stay in their fields, to be mended.
    expect(actor.getSnapshot().context).toMatchObject({ customStart: '2024-01-01', customEnd: '2026-01-01' });

    actor.send({ type: 'RANGE.CUSTOM_START', day: '2025-01-01' });
    expect(actor.getSnapshot().matches({ range: { custom: 'complete' } })).toBe(true);

    actor.send({ type: 'RANGE.CUSTOM_START', day: '1999-12-31' });
    actor.send({ type: 'RANGE.CUSTOM_END', day: '2000-01-05' });
    expect(selectIsRangeRefused(actor.getSnapshot())).toBe(true);
  });
});

describe('selected day', () => {
  it('selects a clicked day, clears it when clicked again, and moves to another clicked day', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    expect(selectSelectedDay(actor.getSnapshot())).toBe('2026-11-05');
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-06' });
    expect(selectSelectedDay(actor.getSnapshot())).toBe('2026-11-06');
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-06' });
    expect(actor.getSnapshot().matches({ day: 'none' })).toBe(true);
    expect(selectSelectedDay(actor.getSnapshot())).toBeNull();
  });

  it('clears on empty chart space', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    actor.send({ type: 'DAY.CLEAR' });
    expect(actor.getSnapshot().matches({ day: 'none' })).toBe(true);
  });
});

describe('chart mode', () => {
  it('is fees or sales, and rejects anything else ("Chart selection must be fees or sales")', () => {
    const actor = started(dashboardMachine);
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
  it('clears the selected day when the date range changes', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    expect(selectSelectedDay(actor.getSnapshot())).toBe('2026-11-05');
    actor.send({ type: 'RANGE.SELECT', mode: 'current' });
    expect(selectSelectedDay(actor.getSnapshot())).toBeNull();
    expect(selectDateMode(actor.getSnapshot())).toBe('current');
  });

  it('clears the selected day when a custom day changes, and keeps it while another region changes', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'RANGE.SELECT', mode: 'custom' });
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    actor.send({ type: 'CHART.SELECT', mode: 'sales' });
    expect(selectSelectedDay(actor.getSnapshot())).toBe('2026-11-05');
    actor.send({ type: 'RANGE.CUSTOM_START', day: '2026-11-02' });
    expect(selectSelectedDay(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    // The same day again changes no range (a date input never sends it).
    actor.send({ type: 'RANGE.CUSTOM_START', day: '2026-11-02' });
    expect(selectSelectedDay(actor.getSnapshot())).toBe('2026-11-05');
    actor.send({ type: 'RANGE.CUSTOM_END', day: '2026-11-09' });
    expect(selectSelectedDay(actor.getSnapshot())).toBeNull();
    expect(actor.getSnapshot().matches({ range: { custom: 'complete' } })).toBe(true);
  });

  it('clears the selected day when the affiliate changes, and keeps the range and the chart mode', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'RANGE.SELECT', mode: 'previous' });
    actor.send({ type: 'CHART.SELECT', mode: 'sales' });
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    actor.send({ type: 'AFFILIATE.CHANGED' });
    expect(selectSelectedDay(actor.getSnapshot())).toBeNull();
    expect(selectChartMode(actor.getSnapshot())).toBe('sales');
    expect(selectDateMode(actor.getSnapshot())).toBe('previous');
  });

  it('keeps a custom day being chosen through AFFILIATE.CHANGED, and drops only the day selected', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'RANGE.SELECT', mode: 'custom' });
    actor.send({ type: 'RANGE.CUSTOM_START', day: '2026-11-02' });
    actor.send({ type: 'CHART.SELECT', mode: 'sales' });
    actor.send({ type: 'DAY.TOGGLE', day: '2026-11-05' });
    actor.send({ type: 'AFFILIATE.CHANGED' });
    expect(actor.getSnapshot().value).toEqual({ range: { custom: 'incomplete' }, day: 'none', chart: 'sales' });
    expect(actor.getSnapshot().context).toEqual({ customStart: '2026-11-02', customEnd: '', day: null });
    actor.send({ type: 'RANGE.CUSTOM_END', day: '2026-11-09' });
    expect(actor.getSnapshot().matches({ range: { custom: 'complete' } })).toBe(true);
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
  });
});

describe('the view from the URL', () => {
  const view = { mode: 'custom', start: '2026-10-01', end: '2026-10-31', day: '2026-10-05', chart: 'sales' } as const;

  it('starts in the view it is given', () => {
    const snapshot = createActor(dashboardMachine, { input: { view } }).start().getSnapshot();
    expect(snapshot.matches({ range: { custom: 'complete' }, day: 'selected', chart: 'sales' })).toBe(true);
    expect(selectView(snapshot)).toEqual(view);
  });

  it('starts in the default view without one', () => {
    expect(selectView(started(dashboardMachine).getSnapshot())).toEqual({ mode: 'last30', start: '', end: '', day: null, chart: 'fees' });
  });

  it('shows a view sent from the URL, all three parts at once', () => {
    const actor = started(dashboardMachine);
    actor.send({ type: 'VIEW.SHOW', view });
    expect(selectView(actor.getSnapshot())).toEqual(view);
    actor.send({ type: 'VIEW.SHOW', view: { ...view, start: '2026-10-02', end: '', day: null, chart: 'fees' } });
    expect(actor.getSnapshot().matches({ range: { custom: 'incomplete' }, day: 'none', chart: 'fees' })).toBe(true);
    for (const mode of ['current', 'previous', 'last30'] as const) {
      actor.send({ type: 'VIEW.SHOW', view: { mode, start: '', end: '', day: '2026-11-03', chart: 'sales' } });
      expect(selectView(actor.getSnapshot())).toEqual({ mode, start: '', end: '', day: '2026-11-03', chart: 'sales' });
    }
  });

  it('keeps the custom days it had when a view of another mode comes', () => {
    const actor = createActor(dashboardMachine, { input: { view } }).start();
    actor.send({ type: 'VIEW.SHOW', view: { mode: 'current', start: '', end: '', day: null, chart: 'fees' } });
    actor.send({ type: 'RANGE.SELECT', mode: 'custom' });
    expect(actor.getSnapshot().context).toMatchObject({ customStart: '2026-10-01', customEnd: '2026-10-31' });
  });
});
