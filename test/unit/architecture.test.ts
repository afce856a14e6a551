/** The shape of the code: no module imports itself back through others (type imports included), and the layers import only downwards. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { packageRoot } from '../support/cli.ts';

const folders = ['bench', 'bin', 'generators', 'mutants', 'schemas', 'scripts', 'specs', 'src', 'test'];

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

test('layers import downwards: src/core from nothing of the project; nothing but the command line, the mutant catalogue, scripts and tests from src/runner', () => {
  const graph = importGraph();
  const reaching = (from: (file: string) => boolean, to: (file: string) => boolean) =>
    [...graph].flatMap(([file, targets]) => (from(file) ? targets.filter(to).map((target) => `${file} -> ${target}`) : []));
  assert.deepEqual(
    reaching(
      (file) => file.startsWith('src/core/'),
      (target) => !target.startsWith('src/core/') && !target.startsWith('schemas/'),
    ),
    [],
  );
  const mayUseRunner = (file: string) => /^(src\/runner\/|src\/cli\.ts|mutants\/|scripts\/|bench\/|test\/|playwright\.config\.ts)/.test(file);
  assert.deepEqual(
    reaching(
      (file) => !mayUseRunner(file),
      (target) => target.startsWith('src/runner/'),
    ),
    [],
  );
});
