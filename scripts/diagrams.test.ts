// docs/machines/ must show the machines as they are: regenerate the pages in memory and compare.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGRAMS_DIR, diagramFiles, eventLabel, loadMachines, mermaidDiagram } from './machine-diagrams.ts';

const root = join(import.meta.dirname, '..');
const entries = await loadMachines(root);
const expected = diagramFiles(entries);
const directory = join(root, DIAGRAMS_DIR);

describe('docs/machines', () => {
  it('has a page for the auth and token refresh machines, and the index', () => {
    expect([...expected.keys()]).toEqual(expect.arrayContaining(['auth.md', 'tokenRefresh.md', 'README.md']));
  });

  it.each([...expected.keys()])('%s is up to date (npm run diagrams)', (name) => {
    const path = join(directory, name);
    expect(existsSync(path), `${DIAGRAMS_DIR}/${name} is missing: run npm run diagrams`).toBe(true);
    expect(readFileSync(path, 'utf8'), `${DIAGRAMS_DIR}/${name} is out of date: run npm run diagrams`).toBe(expected.get(name));
  });

  it('has no page for a machine that no longer exists', () => {
    const pages = readdirSync(directory).filter((name) => name.endsWith('.md'));
    expect(pages.sort()).toEqual([...expected.keys()].sort());
  });
});

describe('the diagrams', () => {
  const auth = entries.find((entry) => entry.machine.id === 'auth');

  it('nest the states, mark initial states, and label transitions with event and guard', () => {
    const diagram = mermaidDiagram(auth!.machine);
    expect(diagram.split('\n')[0]).toBe('stateDiagram-v2');
    expect(diagram).toContain('  [*] --> routing');
    expect(diagram).toContain('  state "signedOut" as signedOut {\n    [*] --> signedOut_idle\n    state "idle" as signedOut_idle');
    expect(diagram).toContain('  routing --> signedOut : always [hasNoToken]');
    expect(diagram).toContain('  signedOut_signingIn --> routing : done(login)');
    expect(diagram).toContain('  totpSetup_ready_form_idle --> totpSetup_ready_form_idle : CODE.CONFIRM [!hasDeviceId]');
    expect(diagram).toContain('  auth__any --> signedOut : STORAGE.CHANGED [isStorageCleared && needsEmailCode]');
  });

  it("name a guard's parameters", () => {
    const dashboard = entries.find((entry) => entry.machine.id === 'dashboard');
    const diagram = mermaidDiagram(dashboard!.machine);
    expect(diagram).toContain('  range__any --> range_previous : RANGE.SELECT [isMode(previous)]');
    expect(diagram).toContain('  chart__any --> chart_sales : VIEW.SHOW [isChart(sales)]');
  });

  it('use only ids and labels Mermaid can parse', () => {
    for (const { machine } of entries) {
      for (const line of mermaidDiagram(machine).split('\n').slice(1)) {
        const transition = /^\s*(\S+) --> (\S+)(?: : (.+))?$/.exec(line);
        const state = /^\s*state "([^"]+)" as ([A-Za-z0-9_]+)( \{)?$/.exec(line);
        expect(transition ?? state ?? /^\s*(\}|--)$/.exec(line), line).not.toBeNull();
        if (transition) {
          expect(transition[1]).toMatch(/^([A-Za-z0-9_]+|\[\*\])$/);
          expect(transition[2]).toMatch(/^([A-Za-z0-9_]+|\[\*\])$/);
          expect(transition[3] ?? '').not.toMatch(/[:;]/);
        }
      }
    }
  });

  it('name delays and actor outcomes briefly', () => {
    expect(eventLabel('xstate.after.refreshDelay.tokenRefresh.scheduled')).toBe('after(refreshDelay)');
    expect(eventLabel('xstate.error.actor.verifyTotp')).toBe('error(verifyTotp)');
    expect(eventLabel('')).toBe('always');
  });
});
