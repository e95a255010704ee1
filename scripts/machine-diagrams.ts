// Mermaid stateDiagram-v2 diagrams of the machines in machines/, generated from their definitions
// (machine.root walked state node by state node), for docs/machines/ (npm run diagrams) and for
// the test that keeps those files up to date.
//
// Mermaid draws composite states as boxes. A transition a parent state defines for all its
// children (the root's BACK, authenticated's SESSION.EXPIRED) starts from an "any state" node
// inside that box; a transition without a target is drawn as a loop on its source.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StateMachine, type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition } from 'xstate';
import { guardLabel, ownTransitions } from '../tests/model/coverage.ts';

export const MACHINES_DIR = 'machines';
export const DIAGRAMS_DIR = join('docs', 'machines');

export interface MachineEntry {
  /** The machine's file, relative to the project root: machines/auth.ts. */
  file: string;
  machine: AnyStateMachine;
  /** One line: the file's opening comment up to its list of states. */
  description: string;
}

/** The opening comment of a machine file, up to "States:", as one line. */
export function describeFile(source: string, fallback: string): string {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    const comment = /^\s*\/\/\s?(.*)$/.exec(line);
    if (!comment) break;
    lines.push(comment[1]!.trim());
  }
  const text = lines
    .join(' ')
    .split(/\bStates:/)[0]!
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.,:;]$/, '');
  return text ? `${text}.` : fallback;
}

/** Every machine exported by machines/*.ts (tests aside), once each, by file name and export order. */
export async function loadMachines(root: string): Promise<MachineEntry[]> {
  const entries: MachineEntry[] = [];
  const seen = new Set<string>();
  const files = readdirSync(join(root, MACHINES_DIR))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .sort();
  for (const name of files) {
    const file = `${MACHINES_DIR}/${name}`;
    const exports = (await import(pathToFileURL(join(root, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (!(value instanceof StateMachine) || seen.has(value.id)) continue;
      seen.add(value.id);
      const description = describeFile(readFileSync(join(root, file), 'utf8'), `The ${value.id} machine.`);
      entries.push({ file, machine: value as AnyStateMachine, description });
    }
  }
  return entries;
}

// --- Mermaid ------------------------------------------------------------------------------

const isAtomic = (node: AnyStateNode) => Object.keys(node.states).length === 0;

/** A Mermaid id: the state's path joined by underscores (the root: the machine id). */
function nodeId(node: AnyStateNode): string {
  return node.path.length === 0 ? node.machine.id : node.path.join('_');
}

/** Where a parent's own transitions start: an "any state" node inside its box. */
function anyStateId(node: AnyStateNode): string {
  return `${nodeId(node)}__any`;
}

function sourceId(node: AnyStateNode): string {
  return isAtomic(node) ? nodeId(node) : anyStateId(node);
}

/** The event as a label: done(login) and error(login) for an invoked actor, after(delay), always. */
export function eventLabel(eventType: string): string {
  if (eventType === '') return 'always';
  const outcome = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (outcome) return `${outcome[1]}(${outcome[2]})`;
  const delay = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (delay) return `after(${delay[1]})`;
  return eventType;
}

/** A transition label: the event, then its guard in brackets. Mermaid ends a label at ':' or ';'. */
function transitionLabel(transition: AnyTransitionDefinition): string {
  const guard = guardLabel(transition.guard);
  return `${eventLabel(transition.eventType as string)}${guard ? ` [${guard}]` : ''}`.replace(/[:;]/g, ' ');
}

const hasOwnTransitions = (node: AnyStateNode) => ownTransitions(node).length > 0;

function renderStates(node: AnyStateNode, indent: string): string[] {
  const lines: string[] = [];
  const children = Object.values(node.states) as AnyStateNode[];
  if (!isAtomic(node) && hasOwnTransitions(node)) {
    lines.push(`${indent}state "any state" as ${anyStateId(node)}`);
  }
  if (node.type === 'parallel') {
    children.forEach((child, index) => {
      if (index > 0) lines.push(`${indent}--`);
      lines.push(...renderState(child, indent));
    });
    return lines;
  }
  const initial = typeof node.config.initial === 'string' ? node.states[node.config.initial] : undefined;
  if (initial) lines.push(`${indent}[*] --> ${nodeId(initial)}`);
  for (const child of children) lines.push(...renderState(child, indent));
  return lines;
}

function renderState(node: AnyStateNode, indent: string): string[] {
  const id = nodeId(node);
  if (isAtomic(node)) {
    const lines = [`${indent}state "${node.key}" as ${id}`];
    if (node.type === 'final') lines.push(`${indent}${id} --> [*]`);
    return lines;
  }
  return [`${indent}state "${node.key}" as ${id} {`, ...renderStates(node, `${indent}  `), `${indent}}`];
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...(Object.values(node.states) as AnyStateNode[]).flatMap(allNodes)];
}

/** Every transition, drawn after all states so that each state stays in its own box. */
function renderTransitions(machine: AnyStateMachine, indent: string): string[] {
  const lines: string[] = [];
  for (const node of allNodes(machine.root)) {
    for (const transition of ownTransitions(node)) {
      const source = sourceId(node);
      const targets = (transition.target ?? []) as AnyStateNode[];
      const label = transitionLabel(transition);
      if (targets.length === 0) lines.push(`${indent}${source} --> ${source} : ${label}`);
      for (const target of targets) lines.push(`${indent}${source} --> ${nodeId(target)} : ${label}`);
    }
  }
  return lines;
}

/** The Mermaid stateDiagram-v2 source of a machine. */
export function mermaidDiagram(machine: AnyStateMachine): string {
  return ['stateDiagram-v2', ...renderStates(machine.root, '  '), ...renderTransitions(machine, '  ')].join('\n');
}

/** docs/machines/<machine-id>.md */
export function diagramPage(entry: MachineEntry): string {
  return [
    `# ${entry.machine.id}`,
    '',
    entry.description,
    '',
    `Generated from [\`${entry.file}\`](../../${entry.file}) by \`npm run diagrams\`; do not edit by hand.`,
    '',
    '```mermaid',
    mermaidDiagram(entry.machine),
    '```',
    '',
  ].join('\n');
}

/** docs/machines/README.md */
export function diagramIndex(entries: readonly MachineEntry[]): string {
  return [
    '# Machine diagrams',
    '',
    'One page per statechart in `machines/`, generated from the machine definitions by `npm run diagrams`',
    '(`scripts/diagrams.ts`); `scripts/diagrams.test.ts` fails when a page is out of date.',
    '',
    ...entries.map((entry) => `- [${entry.machine.id}](${entry.machine.id}.md) (\`${entry.file}\`): ${entry.description}`),
    '',
    'Reading the diagrams: boxes are compound states (parallel regions are separated by dashed lines);',
    '`[*]` marks the initial state of each box; an "any state" node stands for a transition the box',
    'itself defines, valid in all its states. Labels are the event, then the guard in brackets:',
    '`done(id)` and `error(id)` are the outcomes of the invoked actor `id` (`xstate.done.actor.id`,',
    '`xstate.error.actor.id`), `after(delay)` a named delay, `always` an eventless transition. A',
    'transition without a target (actions only) is a loop.',
    '',
  ].join('\n');
}

/** Every file of docs/machines/, by name. */
export function diagramFiles(entries: readonly MachineEntry[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of entries) files.set(`${entry.machine.id}.md`, diagramPage(entry));
  files.set('README.md', diagramIndex(entries));
  return files;
}
