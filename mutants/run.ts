/**
 * `npm run mutants [name …]`: runs the suite with --strict against every mutant (expecting its
 * own clause to fail, and no clause it may not disturb) and every benign variant (expecting a
 * conformant verdict), each behind its own proxy in front of its own in-memory sandbox, as many at
 * once as the cores allow.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { signalGroup, spawnGroup } from '../src/runner/processes.ts';
import { startSandbox } from '../src/sandbox/index.ts';
import { benignVariants, mutants } from './catalogue.ts';
import { startProxy, type Transform } from './proxy.ts';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
export const mutantSeed = 20240501;

export interface Candidate {
  name: string;
  /** The clause a mutant must make fail; null for a benign variant. */
  clause: string | null;
  /** Other clauses the mutant's fault legitimately breaks too; any other that fails is collateral blame. */
  disturbs: string[];
  transform: Transform;
}

export interface Outcome {
  name: string;
  clause: string | null;
  verdict: string;
  exitCode: number | null;
  failedClauses: string[];
  /** Failed clauses the mutant may not disturb: the suite blamed a clause the fault does not break. */
  collateral: string[];
  /** Killed with no collateral blame (a mutant), or conformant (a benign variant). */
  asExpected: boolean;
  /** Why the run went wrong, where it did. */
  problem: string | null;
  /** The report's folder, kept where the outcome is not the expected one. */
  reportDir: string | null;
}

export function candidates(): Candidate[] {
  return [
    ...mutants.map(({ name, clause, disturbs = [], transform }) => ({ name, clause, disturbs, transform })),
    ...benignVariants.map(({ name, transform }) => ({ name, clause: null, disturbs: [], transform })),
  ];
}

interface Report {
  verdict: string;
  reason: string | null;
  clauses: { id: string; status: string }[];
}

/** Runs the command line to its end (or kills its process group at the time-out). */
function runCli(args: string[], timeoutMs: number): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawnGroup(process.execPath, ['bin/checkout-conformance.js', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\nkilled after ${timeoutMs} ms`;
      signalGroup(child, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

export async function runCandidate(candidate: Candidate, options: { seed?: number; timeoutMs?: number } = {}): Promise<Outcome> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', retryDelaysMs: [200, 200] });
  const proxy = await startProxy({ upstream: sandbox.url, transform: candidate.transform });
  const out = await mkdtemp(join(tmpdir(), `mutant-${candidate.name}-`));
  try {
    // A mutant runs the checks of its own clause only: the run is partial by design.
    const grep = candidate.clause ? ['--grep', candidate.clause, '--allow-partial'] : [];
    const args = ['run', '--base-url', proxy.url, '--profile', 'profiles/sandbox.json', '--strict', '--seed', String(options.seed ?? mutantSeed), '--out', out, ...grep];
    const { exitCode, output } = await runCli(args, options.timeoutMs ?? 300_000);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8').catch(() => 'null')) as Report | null;
    const failedClauses = report?.clauses.filter((clause) => clause.status === 'failed').map((clause) => clause.id) ?? [];
    const collateral = candidate.clause ? failedClauses.filter((id) => id !== candidate.clause && !candidate.disturbs.includes(id)) : [];
    const asExpected = candidate.clause
      ? failedClauses.includes(candidate.clause) && collateral.length === 0
      : report?.verdict === 'conformant' && exitCode === 0;
    const problem = !report
      ? `no report.json (exit ${exitCode}): ${output.trim().split('\n').slice(-3).join(' | ')}`
      : collateral.length > 0
        ? `collateral blame: ${collateral.join(', ')} failed too`
        : report.reason;
    if (asExpected) await rm(out, { recursive: true, force: true });
    return { name: candidate.name, clause: candidate.clause, verdict: report?.verdict ?? 'none', exitCode, failedClauses, collateral, asExpected, problem, reportDir: asExpected ? null : out };
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

/** Runs the candidates `concurrency` at a time, in catalogue order. */
export async function runCandidates(
  list: Candidate[],
  options: { seed?: number; timeoutMs?: number; concurrency?: number; onOutcome?: (outcome: Outcome) => void } = {},
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const index = next++;
      outcomes[index] = await runCandidate(list[index], options);
      options.onOutcome?.(outcomes[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? availableParallelism()) }, worker));
  return outcomes;
}

export function formatMatrix(outcomes: Outcome[]): string {
  const rows = outcomes.map((outcome) => [
    outcome.name,
    outcome.clause ?? 'benign',
    outcome.verdict,
    outcome.failedClauses.join(' ') || '-',
    resultOf(outcome),
  ]);
  const header = ['mutant', 'expected clause', 'verdict', 'clauses failed', 'result'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
  const problems = outcomes
    .filter((outcome) => !outcome.asExpected)
    .map((outcome) => `  ${outcome.name}: ${outcome.problem ?? 'see the report'} (${outcome.reportDir})`);
  return [line(header), ...rows.map(line), ...(problems.length ? ['', 'problems:', ...problems] : []), '', summaryLine(outcomes)].join('\n');
}

function resultOf(outcome: Outcome): string {
  if (!outcome.clause) return outcome.asExpected ? 'conformant' : 'FLAGGED';
  if (outcome.collateral.length > 0) return `COLLATERAL ${outcome.collateral.join(' ')}`;
  return outcome.asExpected ? 'killed' : 'SURVIVED';
}

export function summaryLine(outcomes: Outcome[]): string {
  const ofKind = (mutant: boolean) => outcomes.filter((outcome) => (outcome.clause !== null) === mutant);
  const count = (list: Outcome[]) => `${list.filter((outcome) => outcome.asExpected).length}/${list.length}`;
  return `mutants killed: ${count(ofKind(true))}, benign conformant: ${count(ofKind(false))}`;
}

async function main(names: string[]): Promise<void> {
  const list = candidates().filter((candidate) => names.length === 0 || names.includes(candidate.name));
  if (list.length === 0) throw new Error(`no mutant or variant named ${names.join(', ')}`);
  const outcomes = await runCandidates(list, {
    onOutcome: (outcome) => process.stderr.write(`${outcome.asExpected ? 'ok  ' : 'BAD '} ${outcome.name}\n`),
  });
  console.log(formatMatrix(outcomes));
  process.exitCode = outcomes.every((outcome) => outcome.asExpected) ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`mutants: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  });
}
