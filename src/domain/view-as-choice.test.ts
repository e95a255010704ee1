import { describe, expect, it } from 'vitest';
import { viewAsChoice } from './view-as-choice.ts';

describe("the tab's kept choice of an affiliate to view as", () => {
  it('names the affiliate only for the user who chose it', () => {
    expect(viewAsChoice('["admin","AFF-120"]', 'admin')).toBe('AFF-120');
    expect(viewAsChoice('["admin","AFF-120"]', 'berlin')).toBeNull();
    expect(viewAsChoice('["admin","AFF-120"]', undefined)).toBeNull();
  });

  it('is the own view for an empty id, nothing kept, or anything else', () => {
    for (const stored of ['["admin",""]', null, '', 'not json', '["admin",120]', '{"admin":"AFF-120"}', 'null'])
      expect(viewAsChoice(stored, 'admin'), String(stored)).toBeNull();
  });
});
