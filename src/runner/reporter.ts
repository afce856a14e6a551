/**
 * Playwright reporter: writes every test's outcome, clause IDs and JSON attachments to the run's
 * folder (raw-results.json), masked; src/report/report.ts builds the conformance report from it.
 * A run of several targets (src/harness/targets.ts: the mutant catalogue) writes each target's tests to
 * its own raw-results.json, in that target's folder.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { attachmentNames, classAnnotation, mask, type ClassOutcome, type Evidence, type Observation, type PropertyRun } from '../core/evidence.ts';
import type { Judgement } from '../checks/problem.ts';
import { asClauseId } from '../core/clauses.ts';
import { readRunPlan, type RunConfig, type RunPlan } from '../core/run-config.ts';
import { secretsOfRun } from '../core/profile.ts';
import type { AskedToWait } from '../core/transport-options.ts';
import { readsBackTag, targetOf, targetsOfRun, testRefOf } from '../harness/targets.ts';
import { clauseIdsOf, rawJournalFile, rawResultsFile, type RawResults, type RawTest } from '../report/raw-results.ts';
import { describeForcedEnd, runEndGraceMs, watchRunEnd, type RunEndWatchdog } from './run-end.ts';

type Attachment = TestResult['attachments'][number];

const targets = targetsOfRun();
/** The run config of the test's target; undefined: the environment's. */
const runConfigFileOf = (test: TestCase): string | undefined => targetOf(test.annotations, targets)?.runConfigFile;

export default class ConformanceReporter implements Reporter {
  /** The tests by the run config file they ran with; undefined: the one the environment names. */
  private readonly testsByRun = new Map<string | undefined, Map<TestCase, RawTest>>();
  private readonly errors: string[] = [];
  /** What the reporter needs of a run (its folder and secrets) its plan has already. */
  private readonly runs = new Map<string | undefined, RunPlan | RunConfig>();

  private runOf(runConfigFile: string | undefined): RunPlan | RunConfig {
    if (!this.runs.has(runConfigFile)) this.runs.set(runConfigFile, readRunPlan(runConfigFile));
    return this.runs.get(runConfigFile)!;
  }

  private watchdog: RunEndWatchdog | null = null;

  onBegin(_config: FullConfig, suite: Suite): void {
    // Every run gets its raw results, even one whose tests were all filtered out.
    for (const target of targets ?? [{ runConfigFile: undefined }]) this.testsOf(target.runConfigFile);
    const runs = [...this.testsByRun.keys()].map((runConfigFile) => this.runOf(runConfigFile));
    const graceMs = Math.max(...runs.map((run) => run.profile.timeouts.eventMs)) + runEndGraceMs;
    this.watchdog = watchRunEnd(suite.allTests().length, graceMs, () => this.forceEnd(graceMs));
  }

  private testsOf(runConfigFile: string | undefined): Map<TestCase, RawTest> {
    if (!this.testsByRun.has(runConfigFile)) this.testsByRun.set(runConfigFile, new Map());
    return this.testsByRun.get(runConfigFile)!;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // A test the run's stop cut short did not finish: its clauses stay untested, the report says why.
    if (result.status === 'interrupted') return;
    const jsonOf = (name: string) => result.attachments.filter((a) => a.name === name && a.contentType === 'application/json').map(parseAttachment);
    const status = result.status === 'passed' ? 'passed' : result.status === 'skipped' ? 'skipped' : 'failed';
    const judgement = (jsonOf(attachmentNames.judgement).at(-1) as Judgement | undefined) ?? { problems: [], judged: false };
    const raw: RawTest = {
      // The title path without the root's and the project's.
      ...testRefOf(test.titlePath().slice(2), targets !== null),
      clauseIds: clauseIdsOf(test.tags),
      ...(test.tags.includes(readsBackTag) && { readsBack: true }),
      ...judgement,
      status,
      reason: reasonOf(status, test, result),
      evidence: jsonOf(attachmentNames.evidence).flat() as Evidence[],
      observations: jsonOf(attachmentNames.observation) as Observation[],
      property: (jsonOf(attachmentNames.property).at(-1) as PropertyRun | undefined) ?? null,
      classes: [...(jsonOf(attachmentNames.classes).flat() as ClassOutcome[]), ...declaredClasses(test, status, judgement.judged, result)],
      ...(jsonOf(attachmentNames.askedToWait).length > 0 && { askedToWait: jsonOf(attachmentNames.askedToWait).at(-1) as AskedToWait }),
      durationMs: result.duration,
    };
    const runConfigFile = runConfigFileOf(test);
    this.testsOf(runConfigFile).set(test, raw);
    const run = this.runOf(runConfigFile);
    appendFileSync(`${run.outDir}/${rawJournalFile}`, `${JSON.stringify(mask(raw, secretsOfRun(run.headers, run.profile)))}\n`);
    this.watchdog?.testEnded();
  }

  onError(error: TestError): void {
    this.errors.push(messageOf(error));
  }

  onEnd(result: FullResult): void {
    this.watchdog?.runEnded();
    this.writeRawResults(result.status, null);
  }

  /** Every test ended, and Playwright still had not: the results are written as they are, and Playwright (this process) ends; the runner stops its workers. */
  private forceEnd(graceMs: number): void {
    const failed = [...this.testsByRun.values()].some((tests) => [...tests.values()].some((test) => test.status === 'failed'));
    this.writeRawResults(
      failed ? 'failed' : 'passed',
      describeForcedEnd(
        graceMs,
        [...this.testsByRun.keys()].map((file) => this.runOf(file).outDir),
      ),
    );
    process.exit(failed ? 1 : 0);
  }

  private writeRawResults(status: string, forcedEnd: string | null): void {
    for (const [runConfigFile, tests] of this.testsByRun) {
      const run = this.runOf(runConfigFile);
      const raw: RawResults = { status, errors: this.errors, tests: [...tests.values()], ...(forcedEnd && { forcedEnd }) };
      writeFileSync(`${run.outDir}/${rawResultsFile}`, JSON.stringify(mask(raw, secretsOfRun(run.headers, run.profile)), null, 2));
      rmSync(`${run.outDir}/${rawJournalFile}`, { force: true });
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}

function reasonOf(status: RawTest['status'], test: TestCase, result: TestResult): string | null {
  if (status === 'skipped') return skipReason(test, result);
  if (status === 'failed') {
    if (result.status === 'timedOut') return `test time-out after ${result.duration} ms`;
    return result.error ? messageOf(result.error) : 'failed';
  }
  return null;
}

const skipReason = (test: Pick<TestCase, 'annotations'>, result: Pick<TestResult, 'annotations'>) =>
  [...result.annotations, ...test.annotations].find((a) => a.type === 'skip' || a.type === 'fixme')?.description ?? 'skipped';

/** The scenario classes a test names (classAnnotation): exercised where it reached its judgement, skipped with its reason where it was skipped. */
export function declaredClasses(
  test: Pick<TestCase, 'annotations'>,
  status: RawTest['status'],
  judged: boolean,
  result: Pick<TestResult, 'annotations'>,
): ClassOutcome[] {
  return test.annotations
    .filter((annotation) => annotation.type === classAnnotation && annotation.description)
    .flatMap((annotation): ClassOutcome[] => {
      const [named, name] = annotation.description!.split(/: (.*)/s);
      const clause = asClauseId(named);
      if (!clause) return [];
      if (status === 'skipped') return [{ clause, name, skipped: skipReason(test, result) }];
      return judged ? [{ clause, name, skipped: null }] : [];
    });
}

function messageOf(error: TestError): string {
  return stripVTControlCharacters(error.message ?? error.value ?? 'unknown error');
}

function parseAttachment(attachment: Attachment): unknown {
  const text = attachment.body ? attachment.body.toString('utf8') : readFileSync(attachment.path!, 'utf8');
  return JSON.parse(text);
}
