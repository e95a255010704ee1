// @vitest-environment node
// SEED_AFFILIATES (ensureDemoData's seedAffiliates): partner organisations added to the demo's,
// named alike, some with children and grandchildren, the same ones on every run.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db.ts';
import { ensureDemoData, MAX_SEED_AFFILIATES, seedAffiliates } from './seed.ts';

const TODAY = DateTime.fromObject({ year: 2026, month: 11, day: 22, hour: 14 }, { zone: 'Europe/Berlin' });

interface Row {
  id: string;
  name: string;
  parent: string | null;
}

const rows = (db: Db) => db.prepare('SELECT affiliate_id AS id, name, parent_id AS parent FROM affiliates ORDER BY rowid').all() as Row[];

function seeded(seedAffiliates?: number, log: (line: string) => void = () => {}): Db {
  const db = openDatabase(':memory:');
  ensureDemoData(db, { today: TODAY, log, seedAffiliates });
  return db;
}

describe('the seed option for many affiliates', () => {
  it('adds that many partner organisations to the demo affiliates, each named once', () => {
    const demo = rows(seeded());
    const lines: string[] = [];
    const all = rows(seeded(3000, (line) => lines.push(line)));
    expect(all).toHaveLength(demo.length + 3000);
    expect(all.slice(0, demo.length)).toEqual(demo);
    expect(new Set(all.map((row) => row.name)).size).toBe(all.length);
    expect(lines).toContain('Seed affiliates 3000: added 3000 partner organisations');
  });

  it("names them alike, as a travel insurer's partners are ('Atlas Travel', its branch 'Atlas Berlin'), accents included", () => {
    const added = seedAffiliates(3000);
    const byId = new Map(added.map((affiliate) => [affiliate.id, affiliate]));
    expect(added[0]).toEqual({ id: 'AFF-1000', name: 'Atlas Travel', parentId: null });
    const children = added.filter((affiliate) => affiliate.parentId !== null);
    const grandchildren = children.filter((affiliate) => byId.get(affiliate.parentId as string)?.parentId);
    expect(children.length).toBeGreaterThan(1000);
    expect(grandchildren.length).toBeGreaterThan(50);
    for (const child of children) {
      const parent = byId.get(child.parentId as string);
      // Parents come first, and a branch carries its organisation's brand.
      expect(added.indexOf(parent as (typeof added)[number])).toBeLessThan(added.indexOf(child));
      expect(child.name.split(' ')[0]).toBe(parent?.name.split(' ')[0]);
    }
    expect(added.some((affiliate) => /[À-ž]/.test(affiliate.name))).toBe(true);
  });

  it('adds only what is missing on a later start, and more when asked for more', () => {
    const db = seeded(200);
    const before = rows(db);
    const lines: string[] = [];
    ensureDemoData(db, { today: TODAY, log: (line) => lines.push(line), seedAffiliates: 200 });
    expect(rows(db)).toEqual(before);
    expect(lines.filter((line) => line.startsWith('Seed affiliates'))).toEqual([]);
    ensureDemoData(db, { today: TODAY, log: () => {}, seedAffiliates: 500 });
    const after = rows(db);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 300);
  });

  it(`refuses more than ${MAX_SEED_AFFILIATES.toLocaleString('en-US')} or a count that is not a whole number`, () => {
    expect(() => seeded(MAX_SEED_AFFILIATES + 1)).toThrow(RangeError);
    expect(() => seeded(2.5)).toThrow(RangeError);
  });
});
