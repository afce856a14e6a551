/** The shape of the code: no module imports itself back through others (type imports included), and every import runs down the floors. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { packageRoot } from '../support/cli.ts';

const folders = ['bench', 'bin', 'mutants', 'schemas', 'scripts', 'specs', 'src', 'test'];

function sourceFiles(): string[] {
  const inFolders = folders.flatMap((folder) =>
    readdirSync(join(packageRoot, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(folder, name)),
  );
  return [...inFolders, 'playwright.config.ts'];
}

/** The files of the project each file imports or re-exports from, by relative path. */
function importGraph(): Map<string, string[]> {
  const files = new Set(sourceFiles());
  const statement = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gms;
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(packageRoot, file), 'utf8');
    const targets = [...text.matchAll(statement)].map((match) => normalize(join(dirname(file), match[1]))).filter((target) => files.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the path that closes it. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    const at = path.indexOf(file);
    if (at !== -1) return void cycles.push([...path.slice(at), file]);
    if (done.has(file)) return;
    path.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return cycles;
}

test('no import cycle', () => {
  const graph = importGraph();
  assert.ok(graph.size > 100, `${graph.size} files read`);
  assert.ok(
    [...graph.values()].some((targets) => targets.length > 0),
    'imports found',
  );
  assert.deepEqual(
    cyclesOf(graph).map((cycle) => cycle.join(' -> ')),
    [],
  );
});

test('the cycle finder finds a cycle', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['a.ts']],
  ]);
  assert.deepEqual(cyclesOf(graph), [['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
});

/**
 * The floors of the house, from the ground up: a file imports from its own folder or from a folder
 * on a lower floor, never from one beside it or above it.
 */
const floors: string[][] = [
  ['schemas'],
  ['src/core'],
  ['src/checks', 'src/generators', 'src/sandbox'],
  ['src/model', 'src/report'],
  ['src/harness', 'src/observe'],
  ['src/runner'],
  ['src/cli.ts', 'specs', 'playwright.config.ts'],
  ['mutants'],
  ['bench', 'scripts'],
  ['test'],
];

/** The folder (or top-level file) of the floors a file belongs to. */
function roomOf(file: string): string {
  const room = floors.flat().find((candidate) => file === candidate || file.startsWith(`${candidate}/`));
  if (!room) throw new Error(`${file} stands on no floor: add its folder to the floors`);
  return room;
}
const floorOf = (room: string) => floors.findIndex((floor) => floor.includes(room));

/** Every import that runs sideways or back up, as "file -> target". */
function importsNotDownwards(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    targets.filter((target) => roomOf(target) !== roomOf(file) && floorOf(roomOf(target)) >= floorOf(roomOf(file))).map((target) => `${file} -> ${target}`),
  );
}

test('every import runs down the floors: src/core, then the checks, generators and sandbox, the model and report, the harness and observe, the runner, the specs, the catalogue, scripts and bench, the tests', () => {
  assert.deepEqual(importsNotDownwards(importGraph()), []);
});

test('the floor check finds an import that runs back up, and one beside it', () => {
  const graph = new Map([
    ['src/core/operations.ts', ['src/checks/problem.ts']],
    ['src/checks/problem.ts', ['src/core/operations.ts', 'src/generators/values.ts']],
    ['src/runner/run.ts', ['src/runner/options.ts', 'src/harness/api.ts', 'src/core/operations.ts']],
  ]);
  assert.deepEqual(importsNotDownwards(graph), ['src/core/operations.ts -> src/checks/problem.ts', 'src/checks/problem.ts -> src/generators/values.ts']);
});
