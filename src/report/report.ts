/**
 * The conformance report (shared/contracts/cli-and-report.md): every clause of the catalogue in
 * order, its status from the problems that name it and the tests that can verify it, the coverage
 * of the MUST and SHOULD clauses, and the run's verdict.
 */
import { readFileSync } from 'node:fs';
import type { Clause, ClauseLevel } from '../core/clauses.ts';
import type { RunConfig } from '../core/run-config.ts';
import { remedyFor } from '../core/needs.ts';
import { condenseEvidence, shellQuote } from '../core/evidence.ts';
import { packageRoot } from '../core/package-root.ts';
import { describeProblems } from '../checks/problem.ts';
import { waive, type ClauseWaiver, type Waiver } from './baseline.ts';
import type { RawResults, RawTest } from './raw-results.ts';
import { classesOf, type ClauseClasses } from './classes.ts';
import { defaultRuns } from '../core/run-config.ts';
import { describeAskedToWait, type AskedToWait } from '../core/transport-options.ts';
import type { InputCoverage } from './input-coverage.ts';

export type Verdict = 'conformant' | 'non-conformant' | 'incomplete';
export type ClauseStatus = 'passed' | 'failed' | 'warning' | 'skipped' | 'untested' | 'observed' | 'waived';

/** One test as it bears on one clause: its status is the clause's outcome in that test. */
export interface ReportTest extends Omit<RawTest, 'clauseIds' | 'durationMs' | 'problems' | 'judged'> {
  /** The command that runs this clause again with the same seed; set on failures. */
  replay: string | null;
}

export interface ReportClause extends Clause {
  status: ClauseStatus;
  /** The --baseline waiver that matched this clause's failure (expired or not). */
  waiver: ClauseWaiver | null;
  /** The input classes of the clause the run exercised, and the ones it did not, with why. */
  classes: ClauseClasses;
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

/** The MUST and SHOULD clauses verified (passed, failed, warned or waived), skipped and untested. */
export interface Coverage {
  verified: string[];
  skipped: string[];
  untested: string[];
  /** A MUST clause is not verified. */
  partial: boolean;
  /** One line for the top of every report file: "partial: verified 31 of 47 MUST/SHOULD clauses; not verified: …". */
  statement: string;
}

/** How the run was made: what the report records and a replay needs. */
export interface RunFacts {
  seed: number;
  runs: number;
  strict: boolean;
  /** --allow-partial (implied by --target prism): a run that could not verify every MUST clause may be conformant. */
  allowPartial: boolean;
  grep: string | null;
  /** "i/n" for one part of a sharded run. */
  shard: string | null;
  startedAt: string;
  finishedAt: string;
}

export interface Report extends RunFacts {
  verdict: Verdict;
  reason: string | null;
  /** profilePath: --profile as given (null: the target's built-in profile); findings: what the preflight found out (test helpers, hosted pages). */
  target: { baseUrl: string; profile: string; kind: RunConfig['targetKind']; profilePath: string | null; findings: string[] };
  suite: { name: string; version: string };
  summary: Summary;
  coverage: Coverage;
  /** The clauses that need a look (failed, warning, waived), first in the file: each with the first line of its first failing test's reason. */
  failures: Failure[];
  clauses: ReportClause[];
  /** Waivers of the baseline that matched no failure: the baseline can lose them. */
  unusedWaivers: Waiver[];
  /** What the target asked of the tests' requests (429, or 503 with Retry-After), summed over the tests it asked; null where it asked none. */
  askedToWait: (AskedToWait & { tests: number }) | null;
  /** Which partitions of every request field the run sent, from its record of what it sent; null where it sent nothing (or the report was built from parts). */
  inputCoverage: InputCoverage | null;
}

export interface Failure {
  clause: string;
  level: ClauseLevel;
  status: ClauseStatus;
  reason: string;
}

/** What the report needs to know about the run besides the test results. */
export interface RunContext extends RunFacts {
  baseUrl: string;
  targetKind: RunConfig['targetKind'];
  profileName: string;
  /** --profile as given, for the replay command. */
  profilePath: string | null;
  /** What the preflight found out about the target. */
  findings: string[];
  inputCoverage?: InputCoverage | null;
}

/** The context a report was built in, to build it again from the same results (merged parts, another --allow-partial). */
export function contextOf(report: Report): RunContext {
  const { target, seed, runs, strict, allowPartial, grep, shard, startedAt, finishedAt, inputCoverage } = report;
  return {
    baseUrl: target.baseUrl,
    targetKind: target.kind,
    profileName: target.profile,
    profilePath: target.profilePath,
    findings: target.findings,
    seed,
    runs,
    strict,
    allowPartial,
    grep,
    shard,
    startedAt,
    finishedAt,
    inputCoverage,
  };
}

const packageJson = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8')) as { name: string; version: string };

/**
 * raw is null when no test ran; runFailure is why the run could not be made or finished (target
 * unreachable, crash, interrupted), which makes it incomplete, unless a clause had already failed:
 * then it is non-conformant, with the reason.
 */
export function buildReport(
  catalogue: readonly Clause[],
  raw: RawResults | null,
  context: RunContext,
  runFailure: string | null = null,
  waivers: readonly Waiver[] = [],
): Report {
  const clauses = catalogue.map((clause) =>
    reportClause(
      clause,
      raw?.tests ?? [],
      context,
      waivers.find((w) => w.clause === clause.id),
    ),
  );
  const summary: Summary = { passed: 0, failed: 0, warnings: 0, skipped: 0, observed: 0, untested: 0, waived: 0 };
  for (const { status } of clauses) summary[status === 'warning' ? 'warnings' : status] += 1;
  const coverage = coverageOf(clauses);
  const anyFailed = clauses.some((clause) => clause.status === 'failed');
  const reason = runFailure ?? incompleteReason(raw, context) ?? (anyFailed || !coverage.partial || context.allowPartial ? null : unverifiedReason(clauses));
  const { baseUrl, profileName, targetKind, profilePath, findings, inputCoverage = null, ...facts } = context;
  return {
    verdict: anyFailed ? 'non-conformant' : reason ? 'incomplete' : 'conformant',
    reason,
    target: { baseUrl, profile: profileName, kind: targetKind, profilePath, findings },
    suite: { name: packageJson.name, version: packageJson.version },
    ...facts,
    summary,
    coverage,
    failures: failuresFirst(clauses)
      .filter((clause) => needsALook.has(clause.status))
      .map((clause) => ({ clause: clause.id, level: clause.level, status: clause.status, reason: firstFailure(clause) })),
    clauses,
    unusedWaivers: waivers.filter((waiver) => !clauses.some((clause) => clause.waiver?.clause === waiver.clause)),
    askedToWait: askedToWaitOf(raw?.tests ?? []),
    inputCoverage,
  };
}

/** What the report says of the target beside its clauses: what the preflight found, and the waits it asked of the tests. */
export function findingsOf(report: Pick<Report, 'target' | 'askedToWait'>): string[] {
  const { askedToWait } = report;
  return [...report.target.findings, ...(askedToWait ? [describeAskedToWait(askedToWait, `${askedToWait.tests} tests'`)] : [])];
}

function askedToWaitOf(tests: readonly RawTest[]): Report['askedToWait'] {
  const asked = tests.flatMap((test) => (test.askedToWait ? [test.askedToWait] : []));
  if (asked.length === 0) return null;
  const sum = (of: (one: AskedToWait) => number) => asked.reduce((total, one) => total + of(one), 0);
  return { answers: sum((one) => one.answers), waitedMs: sum((one) => one.waitedMs), tests: asked.length };
}

const verifiedStatuses = new Set<ClauseStatus>(['passed', 'failed', 'warning', 'waived']);

/** The statuses that need a look, in the order the report files list them. */
const needingALook: readonly ClauseStatus[] = ['failed', 'warning', 'waived'];
const needsALook = new Set<ClauseStatus>(needingALook);

/** The clauses in the order every report file lists them: failures, then warnings, then waivers, then the rest, each in catalogue order. */
export function failuresFirst<T extends Pick<ReportClause, 'status'>>(clauses: readonly T[]): T[] {
  const rank = (clause: T) => (needsALook.has(clause.status) ? needingALook.indexOf(clause.status) : needingALook.length);
  return [...clauses].sort((a, b) => rank(a) - rank(b));
}

/** The first line of the reason of a clause's first failing test. */
function firstFailure(clause: Pick<ReportClause, 'tests'>): string {
  return clause.tests.find((test) => test.status === 'failed')?.reason?.split('\n')[0] ?? '';
}

/** "1 of 3 tests skipped" under a clause that passed or was observed with some of its tests skipped; null where none was. */
export function skippedUnder(clause: Pick<ReportClause, 'status' | 'tests'>): string | null {
  if (clause.status === 'skipped' || clause.status === 'untested') return null;
  const skipped = clause.tests.filter((test) => test.status === 'skipped').length;
  return skipped === 0 ? null : `${skipped} of ${clause.tests.length} tests skipped`;
}

export function coverageOf(clauses: readonly ReportClause[]): Coverage {
  const judged = clauses.filter((clause) => clause.level !== 'INFO');
  const ids = (keep: (clause: ReportClause) => boolean) => judged.filter(keep).map((clause) => clause.id);
  const verified = ids((clause) => verifiedStatuses.has(clause.status));
  const notVerified = judged.filter((clause) => !verifiedStatuses.has(clause.status));
  const partial = notVerified.some((clause) => clause.level === 'MUST');
  const counted = `verified ${verified.length} of ${judged.length} MUST/SHOULD clauses`;
  return {
    verified,
    skipped: ids((clause) => clause.status === 'skipped'),
    untested: ids((clause) => clause.status === 'untested'),
    partial,
    statement:
      notVerified.length === 0
        ? `complete: ${counted}`
        : `${partial ? 'partial' : 'complete for MUST'}: ${counted}; not verified: ${describeUnverified(notVerified)}`,
  };
}

/** "TOK-1, TOK-2: target has no test helpers (to verify: …); PAGE-6: untested (no check ran)". */
function describeUnverified(clauses: readonly ReportClause[]): string {
  const byWhy = new Map<string, string[]>();
  for (const clause of clauses) {
    const why = whyNotVerified(clause);
    byWhy.set(why, [...(byWhy.get(why) ?? []), clause.id]);
  }
  return [...byWhy].map(([why, ids]) => `${ids.join(', ')}: ${why}`).join('; ');
}

/** Why a clause was not verified: the reason most of its tests give (a test that verifies many clauses, the model, may be skipped for a need of another). */
function whyNotVerified(clause: ReportClause): string {
  if (clause.status === 'untested') return 'untested (no check of it ran)';
  const reasons = clause.tests.flatMap((test) => (test.reason ? [test.reason.split('\n')[0]] : []));
  const count = (reason: string) => reasons.filter((other) => other === reason).length;
  const reason = reasons.reduce<string | undefined>((most, next) => (most === undefined || count(next) > count(most) ? next : most), undefined) ?? 'skipped';
  const remedy = remedyFor(reason);
  return remedy ? `${reason} (to verify: ${remedy})` : reason;
}

function unverifiedReason(clauses: readonly ReportClause[]): string {
  const unverified = clauses.filter((clause) => clause.level === 'MUST' && !verifiedStatuses.has(clause.status));
  return `${unverified.length} MUST clause${unverified.length === 1 ? ' was' : 's were'} not verified: ${describeUnverified(unverified)}. --allow-partial accepts a partial run.`;
}

export function exitCodeOf(verdict: Verdict): 0 | 1 | 2 {
  return verdict === 'conformant' ? 0 : verdict === 'non-conformant' ? 1 : 2;
}

function incompleteReason(raw: RawResults | null, context: RunContext): string | null {
  if (!raw) return 'the test runner ended without results';
  if (raw.status === 'timedout')
    return "the run's time-out was reached before every check ran: the checks that had ended are judged, the clauses of the rest are untested";
  if (raw.status === 'interrupted') return 'the run was interrupted: the checks that had ended are judged, the clauses of the rest are untested';
  const firstError = raw.errors[0]?.split('\n')[0];
  if (raw.tests.length === 0) {
    return context.grep ? `no check matches --grep ${context.grep}` : `no check ran${firstError ? `: ${firstError}` : ''}`;
  }
  if (firstError) return `the checks could not all run: ${firstError}`;
  return null;
}

function reportClause(clause: Clause, rawTests: readonly RawTest[], context: RunContext, waiver: Waiver | undefined): ReportClause {
  const tests = rawTests.flatMap((test) => {
    const outcome = outcomeIn(test, clause.id);
    if (!outcome) return [];
    const { clauseIds, durationMs, problems, judged, evidence, classes: _classes, ...rest } = test;
    return [
      { ...rest, evidence: condenseEvidence(evidence), ...outcome, replay: outcome.status === 'failed' ? replayCommand(context, clause.id, test) : null },
    ];
  });
  return {
    ...clause,
    ...waive(clauseStatus(clause.level, tests, context.strict), waiver, context.startedAt.slice(0, 10)),
    classes: classesOf(clause.id, rawTests),
    tests,
  };
}

type Outcome = Pick<RawTest, 'status' | 'reason'>;

/**
 * What a test says of one clause: failed where one of its problems names the clause; for a clause it
 * is tagged with and found no problem of, its own status, except that a test that failed with no
 * problem at all (an exception, a time-out) fails it with that reason, and one that found problems
 * of other clauses verified it only where it reached its judgement with problems of its own tags
 * alone: a problem of a clause it is not tagged with is a step that went wrong on the way (a
 * checkout refused with 401, an answer that is no checkout), after which the clause was never
 * reached. Null: the test does not bear on the clause.
 */
export function outcomeIn(test: RawTest, clauseId: string): Outcome | null {
  const own = test.problems.filter((problem) => problem.clause === clauseId);
  if (own.length > 0) return { status: 'failed', reason: describeProblems(own) };
  if (!test.clauseIds.includes(clauseId)) return null;
  if (test.status !== 'failed' || test.problems.length === 0) return { status: test.status, reason: test.reason };
  const steps = [...new Set(test.problems.map((problem) => problem.clause).filter((clause) => !test.clauseIds.includes(clause)))];
  if (test.judged && steps.length === 0) return { status: 'passed', reason: null };
  const others = steps.length > 0 ? steps : [...new Set(test.problems.map((problem) => problem.clause))];
  return { status: 'skipped', reason: `not verified: a step the test needs failed (${others.join(', ')})` };
}

export function clauseStatus(level: ClauseLevel, tests: readonly Outcome[], strict: boolean): ClauseStatus {
  if (tests.length === 0) return 'untested';
  if (tests.every((test) => test.status === 'skipped')) return 'skipped';
  if (level === 'INFO') return 'observed';
  if (tests.some((test) => test.status === 'failed')) return level === 'SHOULD' && !strict ? 'warning' : 'failed';
  return 'passed';
}

/**
 * One line that runs a clause again against the same target with the same seed; where the test's
 * property failed, that test alone, straight to its failing case (--replay-path).
 */
export function replayCommand(context: RunContext, clauseId: string, test?: Pick<RawTest, 'title' | 'property'>): string {
  const args = [...targetArgs(context.targetKind, context.baseUrl, context.profilePath), '--allow-partial', '--seed', String(context.seed)];
  if (context.runs !== defaultRuns) args.push('--runs', String(context.runs));
  const path = test?.property?.path;
  if (path) args.push('--grep', test.title.split(' › ').at(-1)!, '--replay-path', path);
  else args.push('--grep', clauseId);
  return commandLine(args);
}

/** One line that makes the whole run again: the same target, settings and seed. */
export function runReplay(report: Pick<Report, 'target' | 'seed' | 'runs' | 'strict' | 'allowPartial' | 'grep' | 'shard'>): string {
  const { kind, baseUrl, profilePath } = report.target;
  const args = targetArgs(kind, baseUrl, profilePath);
  if (report.strict) args.push('--strict');
  if (report.allowPartial && kind !== 'prism') args.push('--allow-partial');
  args.push('--seed', String(report.seed));
  if (report.runs !== defaultRuns) args.push('--runs', String(report.runs));
  if (report.grep) args.push('--grep', report.grep);
  if (report.shard) args.push('--shard', report.shard);
  return commandLine(args);
}

function targetArgs(kind: RunConfig['targetKind'], baseUrl: string, profilePath: string | null): string[] {
  const args = kind === 'prism' ? ['--target', 'prism'] : kind === 'url' ? ['--base-url', baseUrl] : [];
  return profilePath ? [...args, '--profile', profilePath] : args;
}

const commandLine = (runArgs: readonly string[]) => ['npx', 'checkout-conformance', 'run', ...runArgs].map(shellQuote).join(' ');
