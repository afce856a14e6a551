/** A candidate's outcome: its report built as `checkout-conformance run` builds it, and judged; and what must not change with the seed. */
import { rmSync } from 'node:fs';
import { clauses } from '../src/core/clauses.ts';
import type { RunConfig } from '../src/core/run-config.ts';
import { secretsOfRun } from '../src/core/profile.ts';
import { readRawResults, type RawTest } from '../src/report/raw-results.ts';
import { buildReport } from '../src/report/report.ts';
import { writeReport } from '../src/report/write.ts';
import { testKeyOf } from '../src/harness/targets.ts';
import { checkedOf, type Candidate, type Checked } from './rotation.ts';

export interface Outcome {
  name: string;
  clause: string | null;
  /** The seed it ran with: `npm run mutants -- --seed N <name>` runs it again. */
  seed: number;
  verdict: string;
  failedClauses: string[];
  /** Failed clauses the mutant may not disturb: the suite blamed a clause the fault does not break. */
  collateral: string[];
  /** How many times its transform fired (mutants/proxy.ts): none means it tried nothing. */
  effects: number;
  /** No test reaches what it changes (mutants/reach.ts), so none ran. */
  unreached: boolean;
  /** Tests chosen for it that produced no result in a run that was not cut short: chosen, then never declared or run. */
  notRun: string[];
  /** Killed with no collateral blame (a mutant), or conformant (a benign variant), its transform having fired. */
  asExpected: boolean;
  /** Its full check (every test), or the part a turn runs: a mutant's tests up to the first kill, a benign variant's fifth. */
  checked: Checked;
  /** Why the run went wrong, where it did. */
  problem: string | null;
  /** The report's folder, kept where the outcome is not the expected one. */
  reportDir: string | null;
}

/** The tests a candidate ran by reach, and the sandbox's run they were chosen from. */
export interface Selection {
  tests: RawTest[];
  sandboxTests: RawTest[];
  /** The candidate changed what the suite sent or got in the run that learned reach, on the same draws. */
  firedInReach: boolean;
}

/** The candidate's report, built as `checkout-conformance run` builds it, and judged; its folder is kept only when the outcome is unexpected. */
export function outcomeOf(
  candidate: Candidate,
  run: RunConfig,
  selection: Selection | null,
  times: { startedAt: string; finishedAt: string },
  runFailure: string | null,
  effects: number,
): Outcome {
  const ran = readRawResults(run.outDir);
  // A benign variant's report is its whole run's: the tests it did not reach ran as on the sandbox.
  const selected = new Set(selection?.tests.map(testKeyOf));
  const raw =
    ran && selection && candidate.clause === null
      ? { ...ran, tests: [...ran.tests, ...selection.sandboxTests.filter((test) => !selected.has(testKeyOf(test)))] }
      : ran;
  const report = buildReport(
    clauses(),
    raw,
    {
      baseUrl: run.baseUrl,
      targetKind: run.targetKind,
      profileName: run.profile.name,
      profilePath: null,
      findings: [],
      seed: run.seed,
      runs: run.runs,
      strict: run.strict,
      // A mutant runs the checks of its own clause only: the run is partial by design.
      allowPartial: candidate.clause !== null,
      grep: candidate.testsBy === 'whole suite' ? null : candidate.clause,
      shard: null,
      ...times,
    },
    runFailure,
  );
  const failedClauses = report.clauses.filter((clause) => clause.status === 'failed').map((clause) => clause.id);
  const collateral = candidate.clause ? failedClauses.filter((id) => id !== candidate.clause && !candidate.disturbs.includes(id)) : [];
  // A variant that stopped matching what the suite sends would pass as conformant having changed nothing.
  // A fifth of a variant's tests may hold none that fires it alone: what a notification meets is set by
  // other tests (the webhook one test sets notifies the payments of others). That it matches what the
  // suite sends, the run that learned reach shows.
  const fired = effects > 0 || (checkedOf(candidate) === 'a fifth of its tests' && selection?.firedInReach === true);
  const unreached = selection !== null && selection.tests.length === 0;
  const resulted = new Set(ran?.tests.map(testKeyOf));
  const notRun = runFailure === null && ran ? (selection?.tests.map(testKeyOf).filter((key) => !resulted.has(key)) ?? []) : [];
  const asExpected =
    fired && notRun.length === 0 && (candidate.clause ? failedClauses.includes(candidate.clause) && collateral.length === 0 : report.verdict === 'conformant');
  const problem = unreached
    ? `no test${candidate.clause ? ` of ${candidate.clause}` : ''} reaches it on seed ${run.seed}: a hole in the suite, not a pass`
    : notRun.length > 0
      ? `${notRun.length} of the tests chosen for it never ran, a hole in the selection, not a pass: ${notRun.slice(0, 3).join('; ')}${notRun.length > 3 ? '…' : ''}`
      : !fired
        ? 'no effect: its transform never fired'
        : collateral.length > 0
          ? `collateral blame: ${collateral.join(', ')} failed too`
          : report.reason;
  if (asExpected) rmSync(run.outDir, { recursive: true, force: true });
  else writeReport(run.outDir, report, secretsOfRun(run.headers, run.profile));
  return {
    name: candidate.name,
    clause: candidate.clause,
    seed: run.seed,
    verdict: report.verdict,
    failedClauses,
    collateral,
    effects,
    unreached,
    notRun,
    asExpected,
    checked: checkedOf(candidate),
    problem,
    reportDir: asExpected ? null : run.outDir,
  };
}

/** The outcomes of candidates run by onEverySeed, by the candidate's own name (without its `@seed`); the others are left out. */
export function outcomesByCandidate(outcomes: Outcome[]): Map<string, Outcome[]> {
  const byCandidate = new Map<string, Outcome[]>();
  for (const outcome of outcomes) {
    const at = outcome.name.lastIndexOf('@');
    if (at < 0) continue;
    const name = outcome.name.slice(0, at);
    byCandidate.set(name, [...(byCandidate.get(name) ?? []), outcome]);
  }
  return byCandidate;
}

/** The candidates run by onEverySeed whose verdict or failed clauses differ with the seed, each with what each seed gave. */
export function seedDisagreements(outcomes: Outcome[]): string[] {
  return [...outcomesByCandidate(outcomes)]
    .filter(([, mine]) => new Set(mine.map(verdictOf)).size > 1)
    .map(([name, mine]) => `${name}: ${mine.map((outcome) => `seed ${outcome.seed} ${verdictOf(outcome)}`).join('; ')}`);
}

/** What must not change with the seed: the verdict and the failed clauses; of a mutant stopped at its proof, whether its own clause failed (what else failed by then depends on timing). */
const verdictOf = (outcome: Outcome) =>
  outcome.checked === 'to the first kill'
    ? `${outcome.verdict} (${outcome.clause} ${outcome.failedClauses.includes(outcome.clause!) ? 'failed' : 'held'})`
    : `${outcome.verdict} (${outcome.failedClauses.join(' ') || 'no clause failed'})`;
