/**
 * The clause index (docs/clause-index.md): for each clause of the catalogue, what proves it. Its
 * checks (src/checks/registry.ts), the schema keywords that carry it (x-clauses), the specs' tests
 * tagged with it (Playwright's own list), its input classes (src/generators/classes.ts), whether observe
 * judges it, and the mutants killed on it and the benign variants that use its freedom. Written by
 * npm run generate; test/unit/generated.test.ts fails when it is stale.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classNamesByClause } from '../src/generators/index.ts';
import { benignVariants, mutants } from '../mutants/catalogue.ts';
import { answerChecks, type AnsweredOperation } from '../src/checks/answers.ts';
import { checksByClause, clausesJudgedBy, registry } from '../src/checks/registry.ts';
import { observedClauses } from '../src/observe/observer.ts';
import { clauses } from '../src/core/clauses.ts';
import { packageDir } from '../src/core/package-root.ts';
import { runConfigEnv } from '../src/core/run-config.ts';
import { classAnnotation } from '../src/core/evidence.ts';
import { toolPath } from '../src/runner/processes.ts';
import { clauseIndexJson, type ClauseIndexEntry } from '../src/report/clause-index.ts';
import { loadSchema, schemaFiles, type JsonSchema } from '../src/core/schemas.ts';

export const clauseIndexFile = 'docs/clause-index.md';
const modelJudgeFile = 'src/model/judge.ts';
/** The same index as data, packed with the schemas, for the HTML report's "what proves it" of each clause. */
export const clauseIndexJsonFile = clauseIndexJson;

/** Keywords that say nothing a target is judged by. */
const notJudged = new Set([
  '$schema',
  '$id',
  '$defs',
  '$ref',
  'title',
  'description',
  'examples',
  'properties',
  'items',
  'x-clauses',
  'x-distinct',
  'x-not-before',
  'x-seen',
]);

/** Every keyword annotated with x-clauses, as "file#pointer: keywords", by clause. */
function schemaKeywords(): Map<string, string[]> {
  const byClause = new Map<string, string[]>();
  const visit = (file: string, node: unknown, pointer: string) => {
    if (node === null || typeof node !== 'object') return;
    const schema = node as JsonSchema;
    const annotated = schema['x-clauses'];
    if (Array.isArray(annotated)) {
      const keywords = Object.keys(schema).filter((keyword) => !notJudged.has(keyword));
      for (const clause of annotated as string[]) {
        const list = byClause.get(clause) ?? [];
        list.push(`${file}#${pointer || '/'}${keywords.length > 0 ? ` (${keywords.join(', ')})` : ''}`);
        byClause.set(clause, list);
      }
    }
    for (const [key, child] of Object.entries(schema)) visit(file, child, `${pointer}/${key}`);
  };
  for (const file of schemaFiles) visit(file, loadSchema(file), '');
  return byClause;
}

interface ListedSuite {
  title: string;
  file?: string;
  specs?: { title: string; tags: string[]; file: string; line: number; tests: { annotations: { type: string; description?: string }[] }[] }[];
  suites?: ListedSuite[];
}

let listed: { testsByClause: Map<string, string[]>; declaredClasses: Set<string> } | undefined;

/**
 * Every test of the specs, as Playwright lists it (no run config: the config lists without one), by
 * clause tag; and the scenario classes the tests name ("CLAUSE: name", classAnnotation).
 */
export function listedSpecs() {
  if (listed) return listed;
  const env = { ...process.env };
  delete env[runConfigEnv];
  const json = execFileSync(process.execPath, [toolPath('@playwright/test', 'playwright'), 'test', '--list', '--reporter=json'], {
    cwd: packageDir,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const byClause = new Map<string, Set<string>>();
  const declaredClasses = new Set<string>();
  const visit = (suite: ListedSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      const name = `specs/${spec.file}: ${[...titles, spec.title].join(' › ')}`;
      for (const tag of spec.tags) {
        const clause = tag.replace(/^@/, '');
        if (!/^[A-Z]+-\d+$/.test(clause)) continue;
        byClause.set(clause, (byClause.get(clause) ?? new Set()).add(name));
      }
      for (const { type, description } of spec.tests.flatMap((test) => test.annotations))
        if (type === classAnnotation && description) declaredClasses.add(description);
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of (JSON.parse(json) as { suites: ListedSuite[] }).suites) visit(suite, []);
  listed = { testsByClause: new Map([...byClause].map(([clause, names]) => [clause, [...names].sort()])), declaredClasses };
  return listed;
}

const sourceLines = (file: string) => readFileSync(join(packageDir, file), 'utf8').split('\n');
const sourceFiles = (folder: string) =>
  readdirSync(join(packageDir, folder))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${folder}/${name}`);

/** Where each function these files export is defined, as "file:line", by name. */
function functionSites(files: readonly string[]): Map<string, string> {
  const sites = new Map<string, string>();
  for (const file of files)
    sourceLines(file).forEach((line, at) => {
      const name = /^export (?:async )?function (\w+)/.exec(line)?.[1];
      if (name && !sites.has(name)) sites.set(name, `${file}:${at + 1}`);
    });
  return sites;
}

/** Where each candidate is declared (its name given as a literal), as "file:line", by name; one made by a function has none. */
function candidateSites(names: readonly string[]): Map<string, string> {
  const lines = sourceFiles('mutants').flatMap((file) => sourceLines(file).map((line, at) => ({ line, site: `${file}:${at + 1}` })));
  const sites = new Map<string, string>();
  for (const name of names) {
    const declared = lines.find(({ line }) => line.includes(`name: '${name}'`));
    if (declared) sites.set(name, declared.site);
  }
  return sites;
}

/**
 * The model's rules: each judge function of src/model/judge.ts with the clauses it can fail, from
 * the checks its body calls (judgeAnswer's by the operation it is given).
 */
function modelRules(): { name: string; clauses: Set<string> }[] {
  const checksByName = new Map(registry.map((entry) => [entry.check.name, entry.check]));
  const source = readFileSync(join(packageDir, modelJudgeFile), 'utf8');
  return source
    .split(/^(?=export function )/m)
    .slice(1)
    .map((body) => {
      const checks = [...body.matchAll(/\b(check\w+)\(/g)].flatMap(([, name]) => (checksByName.has(name) ? [checksByName.get(name)!] : []));
      const answered = [...body.matchAll(/judgeAnswer\('(\w+)'/g)].flatMap(([, operation]) => answerChecks[operation as AnsweredOperation]);
      return { name: /^export function (\w+)/.exec(body)![1], clauses: new Set(clausesJudgedBy([...checks, ...answered])) };
    })
    .filter((rule) => rule.clauses.size > 0);
}

const list = (items: readonly string[]) => (items.length === 0 ? ' none' : items.map((item) => `\n  - ${item}`).join(''));
const code = (names: readonly string[], sites: Record<string, string> = {}) => names.map((name) => `\`${name}\`${sites[name] ? ` (${sites[name]})` : ''}`);

/** What proves each clause, from the registry, the schemas, Playwright's list of the specs, the classes, observe and the catalogue. */
export function clauseIndex(): ClauseIndexEntry[] {
  const keywords = schemaKeywords();
  const tests = listedSpecs().testsByClause;
  const rules = modelRules();
  const sites = new Map([
    ...functionSites(sourceFiles('src/checks')),
    ...functionSites([modelJudgeFile]),
    ...candidateSites([...mutants, ...benignVariants].map((candidate) => candidate.name)),
  ]);
  const sitesOf = (...names: string[][]) => Object.fromEntries(names.flat().flatMap((name) => (sites.has(name) ? [[name, sites.get(name)!]] : [])));
  return clauses().map((clause) => {
    const entry = {
      id: clause.id,
      checks: [...new Set((checksByClause[clause.id] ?? []).map((check) => check.name))],
      schemaKeywords: keywords.get(clause.id) ?? [],
      tests: tests.get(clause.id) ?? [],
      inputClasses: classNamesByClause[clause.id] ?? [],
      modelRules: rules.filter((rule) => rule.clauses.has(clause.id)).map((rule) => rule.name),
      observe: observedClauses.includes(clause.id),
      mutants: mutants
        .filter((mutant) => mutant.clause === clause.id)
        .map((mutant) => mutant.name)
        .sort(),
      alsoBrokenBy: mutants
        .filter((mutant) => mutant.disturbs?.includes(clause.id))
        .map((mutant) => mutant.name)
        .sort(),
      benignVariants: benignVariants
        .filter((variant) => variant.freedom === clause.id)
        .map((variant) => variant.name)
        .sort(),
    };
    return { ...entry, sites: sitesOf(entry.checks, entry.modelRules, entry.mutants, entry.alsoBrokenBy, entry.benignVariants) };
  });
}

export function renderClauseIndex(index: readonly ClauseIndexEntry[]): string {
  const lines = [
    '# Clause index',
    '',
    'Generated by `npm run generate` from the clause catalogue, the checks registry, the schemas, the specs, the input classes, `observe` and the mutant catalogue: do not edit.',
    '',
    '| clause | level | statement |',
    '|---|---|---|',
    ...clauses().map(
      (clause) =>
        `| [${clause.id}](#${clause.id.toLowerCase()}) | ${clause.level} | ${clause.statement.replace(/\|/g, '\\|').split('. ')[0].replace(/\.$/, '')}. |`,
    ),
    '',
  ];
  for (const [clause, entry] of clauses().map((clause, at) => [clause, index[at]] as const)) {
    lines.push(
      `## ${clause.id}`,
      '',
      `${clause.level}: ${clause.statement}`,
      '',
      `- checks: ${entry.checks.length === 0 ? 'none' : code(entry.checks, entry.sites).join(', ')}`,
      `- schema keywords:${list(entry.schemaKeywords.map((keyword) => keyword.replace(/^([^ ]+)/, '`$1`')))}`,
      `- tests:${list(entry.tests.map((test) => test.replace(/^([^:]+):/, '`$1`:')))}`,
      `- input classes:${list(entry.inputClasses)}`,
      ...(entry.modelRules.length > 0 ? [`- the model's rules: ${code(entry.modelRules, entry.sites).join(', ')}`] : []),
      `- observe: ${entry.observe ? 'judged (or recorded) in real traffic' : 'not judged'}`,
      `- mutants killed on it: ${entry.mutants.length === 0 ? 'none' : code(entry.mutants, entry.sites).join(', ')}`,
      ...(entry.alsoBrokenBy.length > 0 ? [`- mutants that also break it: ${code(entry.alsoBrokenBy, entry.sites).join(', ')}`] : []),
      ...(entry.benignVariants.length > 0 ? [`- benign variants using its freedom: ${code(entry.benignVariants, entry.sites).join(', ')}`] : []),
      '',
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export const renderClauseIndexJson = (index: readonly ClauseIndexEntry[]): string => `${JSON.stringify(index, null, 2)}\n`;
