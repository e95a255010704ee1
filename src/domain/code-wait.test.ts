import { describe, expect, it } from 'vitest';
import { minutesAndSeconds } from './code-wait.ts';

describe('the wait after too many codes', () => {
  it('is shown in minutes and seconds (m:ss)', () => {
    expect(minutesAndSeconds(896)).toBe('14:56');
    expect(minutesAndSeconds(60)).toBe('1:00');
    expect(minutesAndSeconds(59)).toBe('0:59');
    expect(minutesAndSeconds(5)).toBe('0:05');
    expect(minutesAndSeconds(3600)).toBe('60:00');
  });
});
