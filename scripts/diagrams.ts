// npm run diagrams: writes a Mermaid diagram of every machine in machines/ to
// docs/machines/<machine-id>.md, and docs/machines/README.md listing them (scripts/machine-diagrams.ts).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIAGRAMS_DIR, diagramFiles, loadMachines } from './machine-diagrams.ts';

const root = join(import.meta.dirname, '..');
const directory = join(root, DIAGRAMS_DIR);
const files = diagramFiles(await loadMachines(root));

mkdirSync(directory, { recursive: true });
// Pages of machines that no longer exist go.
for (const name of readdirSync(directory)) {
  if (name.endsWith('.md') && !files.has(name)) rmSync(join(directory, name));
}
for (const [name, text] of files) {
  writeFileSync(join(directory, name), text);
  console.log(`wrote ${DIAGRAMS_DIR}/${name}`);
}
