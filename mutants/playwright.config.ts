/**
 * The whole mutant catalogue as one Playwright run, started by mutants/run.ts: every candidate is a
 * target of src/harness/targets.ts, so that each test is declared once per candidate (a mutant's, only
 * those of its own clause) and workers are kept across candidates instead of started for each.
 */
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { grepPattern, literalPattern } from '../src/runner/playwright.ts';
import { describeTitle, targetNameIn, targetsEnv, targetsOfRun, type TargetEntry, type TestRef } from '../src/harness/targets.ts';
import { timingsEnv } from '../src/runner/timings.ts';
import { auditProject, auditSpec } from '../src/harness/pools.ts';

const targets = targetsOfRun();
if (!targets) throw new Error('no targets: run the catalogue through "npm run mutants"');
// Beside the targets file, in the catalogue's own temporary folder: a failing test's artefacts stay out of the checkout.
const outputDir = join(dirname(process.env[targetsEnv]!), `test-results-${basename(process.env[targetsEnv]!, '.json')}`);

/** Spec files, as Playwright's grep sees them (the file's title comes before the target's describe). */
const anyFile = '[\\w./-]+\\.spec\\.ts';
const modelFiles = 'model(?:-pages)?\\.spec\\.ts';
const otherFiles = '(?!model)[\\w./-]+\\.spec\\.ts';

/**
 * The tests to run against a target, in the files `files` names: its own, those it names where it
 * names some, else only those of its clause where it has one. Playwright greps the title path (the
 * project, the file, the describes, the test) and the tags, each describe's tags after its title,
 * all joined by spaces.
 */
function grepOf(target: TargetEntry, files = anyFile): RegExp {
  const own = `(?:^| )${files} ${literalPattern(describeTitle(target))}`;
  if (target.tests) {
    const tags = '(?: @\\S+)*';
    const exactly = ({ title }: TestRef) =>
      title
        .split(' › ')
        .map((part) => `${tags} ${literalPattern(part)}`)
        .join('');
    return new RegExp(`${own}(?:${target.tests.map(exactly).join('|') || '(?!)'})${tags}$`);
  }
  return new RegExp(target.clause ? `${own} .*(?:${grepPattern(target.clause)})` : own);
}

/**
 * Playwright runs its projects' tests in order, and starts workers of its own for each project (a
 * worker costs seconds of CPU to start), so the work is in three projects, each target's tests
 * split between them by file:
 * - first: the model's tests (the longest) of the suite that learns what reaches what (every other
 *   candidate waits for it), of the targets whose tests stop at nothing, and of the mutants that
 *   only the model's tests reach (nothing before them can prove them); and the tests that took
 *   longest on the sandbox, of the targets that skip nothing: so that none of them ends the run alone;
 * - then: every other test but the final audit;
 * - last: the model's tests of the other mutants: they judge most clauses, so they reach most
 *   mutants, and queued last they find most proofs already in and are skipped (stopOnceFailed).
 */
const modelSpecs = /\/model[^/]*\.spec\.ts$/;
/** A test that took this long on the sandbox starts first in a target that skips nothing. */
const longTestMs = 2500;
const isLong = (test: TestRef) => (test.durationMs ?? 0) >= longTestMs;
const withTests = (target: TargetEntry, keep: (test: TestRef) => boolean): TargetEntry => ({ ...target, tests: target.tests && target.tests.filter(keep) });
const reachedByModelOnly = (target: TargetEntry) =>
  target.tests !== null && target.tests.every(({ file }) => modelSpecs.test(`/${file}`) || auditSpec.test(`/${file}`));
/** Each target's patterns, by the target's name. */
type Patterns = Map<string, RegExp[]>;
const add = (patterns: Patterns, target: TargetEntry, pattern: RegExp) => patterns.set(target.name, [...(patterns.get(target.name) ?? []), pattern]);

/**
 * A project's grep that tests a title only against the patterns of the title's own target (the
 * target's describe it holds): Playwright tests each title against each pattern of a
 * project in turn, which, for hundreds of targets, cost the catalogue's run 6 s of CPU before its
 * first test. Playwright takes it for a RegExp, and calls only its test.
 */
class PerTargetGrep extends RegExp {
  constructor(private readonly patterns: Patterns) {
    super('(?!)');
  }

  override test(title: string): boolean {
    const name = targetNameIn(title);
    return (name !== undefined && this.patterns.get(name)?.some((pattern) => pattern.test(title))) || false;
  }
}

const work = { first: new Map() as Patterns, then: new Map() as Patterns, last: new Map() as Patterns };
for (const target of targets) {
  const skipsNothing = target.marksTests || target.stopOnceFailed === null;
  add(skipsNothing || reachedByModelOnly(target) ? work.first : work.last, target, grepOf(target, modelFiles));
  if (skipsNothing && target.tests) {
    add(work.first, target, grepOf(withTests(target, isLong), otherFiles));
    add(
      work.then,
      target,
      grepOf(
        withTests(target, (test) => !isLong(test)),
        otherFiles,
      ),
    );
  } else add(work.then, target, grepOf(target, otherFiles));
}

export default defineConfig({
  testDir: '../specs',
  outputDir,
  fullyParallel: true,
  // Tests mostly wait (for events that must not come, for the browser), so more workers than cores
  // keep the cores busy; many more cost CPU in switching between them.
  workers: 4 * availableParallelism(),
  retries: 0,
  timeout: 60_000,
  // npm run bench adds when each test ran, for the catalogue's critical path.
  reporter: [['../src/runner/reporter.ts'], ...(process.env[timingsEnv] ? [['../src/runner/timings.ts'] as const] : [])],
  grep: new PerTargetGrep(new Map(targets.map((target) => [target.name, [grepOf(target)]]))),
  // The final audit runs once every other test ended (the teardown of a project without tests that the others depend on).
  projects: [
    { name: 'start', testMatch: /(?!)/, teardown: auditProject },
    ...Object.entries(work).map(([name, patterns]) => ({ name, grep: new PerTargetGrep(patterns), testIgnore: auditSpec, dependencies: ['start'] })),
    { name: auditProject, testMatch: auditSpec },
  ],
});
