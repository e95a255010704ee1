import { describe, expect, it } from 'vitest';
import { codeWaitText, waitLeft } from './code-wait.ts';

describe('the wait after too many codes', () => {
  it('is said in minutes, rounded up, while two minutes or more remain', () => {
    expect(waitLeft(900)).toBe('15 minutes');
    expect(waitLeft(896)).toBe('15 minutes');
    expect(waitLeft(841)).toBe('15 minutes');
    expect(waitLeft(840)).toBe('14 minutes');
    expect(waitLeft(121)).toBe('3 minutes');
    expect(waitLeft(120)).toBe('2 minutes');
  });

  it('is said in seconds once less than two minutes remain, in the same words down to the last', () => {
    expect(waitLeft(119)).toBe('119 seconds');
    expect(waitLeft(60)).toBe('60 seconds');
    expect(waitLeft(1)).toBe('1 seconds');
  });

  it('is told in the line the code forms show', () => {
    expect(codeWaitText(900)).toBe('Too many attempts. You can try again in 15 minutes.');
    expect(codeWaitText(8)).toBe('Too many attempts. You can try again in 8 seconds.');
  });
});
