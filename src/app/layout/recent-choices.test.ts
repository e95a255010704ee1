import { beforeEach, describe, expect, it } from 'vitest';
import { readRecentChoices, rememberRecentChoice, RECENT_CHOICES_KEY } from './recent-choices.ts';

describe("a superuser's recent choices", () => {
  beforeEach(() => window.localStorage.clear());

  it('keeps the five newest ids per username, the newest first, each once', () => {
    for (const id of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A3']) rememberRecentChoice(window.localStorage, 'admin', id);
    rememberRecentChoice(window.localStorage, 'other', 'B1');
    expect(readRecentChoices(window.localStorage, 'admin')).toEqual(['A3', 'A6', 'A5', 'A4', 'A2']);
    expect(readRecentChoices(window.localStorage, 'other')).toEqual(['B1']);
    expect(JSON.parse(window.localStorage.getItem(RECENT_CHOICES_KEY) ?? '')).toEqual({
      admin: ['A3', 'A6', 'A5', 'A4', 'A2'],
      other: ['B1'],
    });
  });

  it('reads nothing from a missing or damaged entry', () => {
    expect(readRecentChoices(window.localStorage, 'admin')).toEqual([]);
    window.localStorage.setItem(RECENT_CHOICES_KEY, '{not json');
    expect(readRecentChoices(window.localStorage, 'admin')).toEqual([]);
    window.localStorage.setItem(RECENT_CHOICES_KEY, JSON.stringify({ admin: 'A1' }));
    expect(readRecentChoices(window.localStorage, 'admin')).toEqual([]);
    window.localStorage.setItem(RECENT_CHOICES_KEY, JSON.stringify({ admin: ['A1', 7] }));
    expect(readRecentChoices(window.localStorage, 'admin')).toEqual(['A1']);
    rememberRecentChoice(window.localStorage, 'admin', 'A2');
    expect(readRecentChoices(window.localStorage, 'admin')).toEqual(['A2', 'A1']);
  });
});
