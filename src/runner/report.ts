/**
 * The conformance report (shared/contracts/cli-and-report.md): every clause of the catalogue in
 * order, its status from the tests tagged with it, and the run's verdict.
 */
import { readFileSync } from 'node:fs';
import type { Clause, ClauseLevel } from '../clauses.ts';
import type { RunConfig } from '../run-config.ts';
import { waive, type ClauseWaiver, type Waiver } from './baseline.ts';
import { defaultRuns } from './options.ts';
import type { RawResults, RawTest } from './raw-results.ts';

export type Verdict = 'conformant' | 'non-conformant' | 'incomplete';
export type ClauseStatus = 'passed' | 'failed' | 'warning' | 'skipped' | 'untested' | 'observed' | 'waived';

export interface ReportTest extends Omit<RawTest, 'clauseIds' | 'durationMs'> {
  /** The command that runs this clause again with the same seed; set on failures. */
  replay: string | null;
}

export interface ReportClause extends Clause {
  status: ClauseStatus;
  /** The --baseline waiver that matched this clause's failure (expired or not). */
  waiver: ClauseWaiver | null;
  tests: ReportTest[];
}

export interface Summary {
  passed: number;
  failed: number;
  warnings: number;
  skipped: number;
  observed: number;
  untested: number;
  waived: number;
}

/** How the run was made: what the report records and a replay needs. */
export interface RunFacts {
  seed: number;
  runs: number;
  strict: boolean;
  grep: string | null;
  /** "i/n" for one part of a sharded run. */
  shard: string | null;
  startedAt: string;
  finishedAt: string;
}

export interface Report extends RunFacts {
  verdict: Verdict;
  reason: string | null;
  /** profilePath: --profile as given (null: the target's built-in profile). */
  target: { baseUrl: string; profile: string; kind: RunConfig['targetKind']; profilePath: string | null };
  suite: { name: string; version: string };
  summary: Summary;
  clauses: ReportClause[];
  /** Waivers of the baseline that matched no failure: the baseline can lose them. */
  unusedWaivers: Waiver[];
}

/** What the report needs to know about the run besides the test results. */
export interface RunContext extends RunFacts {
  baseUrl: string;
  targetKind: RunConfig['targetKind'];
  profileName: string;
  /** --profile as given, for the replay command. */
  profilePath: string | null;
}

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

/**
 * raw is null when no test ran; runFailure is why the run could not be made (target unreachable,
 * crash), which makes it incomplete whatever the tests say.
 */
export function buildReport(
  catalogue: readonly Clause[],
  raw: RawResults | null,
  context: RunContext,
  runFailure: string | null = null,
  waivers: readonly Waiver[] = [],
): Report {
  const clauses = catalogue.map((clause) => reportClause(clause, raw?.tests ?? [], context, waivers.find((w) => w.clause === clause.id)));
  const summary: Summary = { passed: 0, failed: 0, warnings: 0, skipped: 0, observed: 0, untested: 0, waived: 0 };
  for (const { status } of clauses) summary[status === 'warning' ? 'warnings' : status] += 1;
  const reason = runFailure ?? incompleteReason(raw, context);
  const anyFailed = clauses.some((clause) => clause.status === 'failed');
  const { baseUrl, profileName, targetKind, profilePath, ...facts } = context;
  return {
    verdict: reason ? 'incomplete' : anyFailed ? 'non-conformant' : 'conformant',
    reason,
    target: { baseUrl, profile: profileName, kind: targetKind, profilePath },
    suite: { name: packageJson.name, version: packageJson.version },
    ...facts,
    summary,
    clauses,
    unusedWaivers: waivers.filter((waiver) => !clauses.some((clause) => clause.waiver?.clause === waiver.clause)),
  };
}

export function exitCodeOf(verdict: Verdict): 0 | 1 | 2 {
  return verdict === 'conformant' ? 0 : verdict === 'non-conformant' ? 1 : 2;
}

function incompleteReason(raw: RawResults | null, context: RunContext): string | null {
  if (!raw) return 'the test runner ended without results';
  if (raw.status === 'timedout') return "the run's time-out was reached before every check ran";
  if (raw.status === 'interrupted') return 'the run was interrupted';
  const firstError = raw.errors[0]?.split('\n')[0];
  if (raw.tests.length === 0) {
    return context.grep ? `no check matches --grep ${context.grep}` : `no check ran${firstError ? `: ${firstError}` : ''}`;
  }
  if (firstError) return `the checks could not all run: ${firstError}`;
  return null;
}

function reportClause(clause: Clause, rawTests: readonly RawTest[], context: RunContext, waiver: Waiver | undefined): ReportClause {
  const tests = rawTests.filter((test) => test.clauseIds.includes(clause.id));
  return {
    ...clause,
    ...waive(clauseStatus(clause.level, tests, context.strict), waiver, context.startedAt.slice(0, 10)),
    tests: tests.map(({ clauseIds, durationMs, ...test }) => ({
      ...test,
      replay: test.status === 'failed' ? replayCommand(context, clause.id) : null,
    })),
  };
}

export function clauseStatus(level: ClauseLevel, tests: readonly RawTest[], strict: boolean): ClauseStatus {
  if (tests.length === 0) return 'untested';
  if (tests.every((test) => test.status === 'skipped')) return 'skipped';
  if (level === 'INFO') return 'observed';
  if (tests.some((test) => test.status === 'failed')) return level === 'SHOULD' && !strict ? 'warning' : 'failed';
  return 'passed';
}

/** One line that runs a clause again against the same target with the same seed. */
export function replayCommand(context: RunContext, clauseId: string): string {
  const args = ['npx', 'checkout-conformance', 'run'];
  if (context.targetKind === 'prism') args.push('--target', 'prism');
  if (context.targetKind === 'url') args.push('--base-url', context.baseUrl);
  if (context.profilePath) args.push('--profile', context.profilePath);
  args.push('--seed', String(context.seed));
  if (context.runs !== defaultRuns) args.push('--runs', String(context.runs));
  args.push('--grep', clauseId);
  return args.map(shellQuote).join(' ');
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
