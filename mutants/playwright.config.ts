/**
 * The whole mutant catalogue as one Playwright run, started by mutants/run.ts: every candidate is a
 * target of specs/targets.ts, so that each test is declared once per candidate (a mutant's, only
 * those of its own clause) and workers are kept across candidates instead of started for each.
 */
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { grepPattern, literalPattern } from '../src/runner/playwright.ts';
import { describeTitle, targetsEnv, targetsOfRun, type TargetEntry, type TestRef } from '../specs/targets.ts';
import { timingsEnv } from '../bench/timings.ts';

const targets = targetsOfRun();
if (!targets) throw new Error('no targets: run the catalogue through "npm run mutants"');
// Beside the targets file, in the catalogue's own temporary folder: a failing test's artefacts stay out of the checkout.
const outputDir = join(dirname(process.env[targetsEnv]!), `test-results-${basename(process.env[targetsEnv]!, '.json')}`);

/**
 * The tests to run against a target: its own, those it names where it names some, else only those of
 * its clause where it has one. Playwright greps the title path and the tags, each describe's tags
 * after its title, all joined by spaces.
 */
function grepOf(target: TargetEntry): RegExp {
  const own = literalPattern(describeTitle(target));
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
 * Playwright runs its projects' tests in order, so the order of the projects is the order of the work:
 * 1. the suite on the sandbox that learns what reaches what (every other candidate waits for it), its model's tests first;
 * 2. the model's tests (the longest) of the targets whose tests stop at nothing, or that only the
 *    model's tests reach, so that they do not end the run alone;
 * 3. every other test but the final audit: of the targets that skip nothing, those that took longest
 *    on the sandbox first;
 * 4. the model's tests of the mutants that stop at their proof: they judge most clauses, so they
 *    reach most mutants, and queued last they find most proofs already in and are skipped.
 */
const modelSpecs = /\/model[^/]*\.spec\.ts$/;
const auditSpec = /\/audit\.spec\.ts$/;
const grepOfEach = (list: TargetEntry[]) => (list.length > 0 ? list.map(grepOf) : [/(?!)/]);
const learning = targets.filter((target) => target.marksTests);
const others = targets.filter((target) => !target.marksTests);
/** A mutant that only the model's tests reach has nothing to find its proof with before them. */
const reachedByModelOnly = (target: TargetEntry) =>
  target.tests !== null && target.tests.every(({ file }) => modelSpecs.test(`/${file}`) || auditSpec.test(`/${file}`));
const modelFirst = (target: TargetEntry) => target.stopOnceFailed === null || reachedByModelOnly(target);
/** A test that took this long on the sandbox starts before the others of a target that skips nothing, so that it does not end the run alone. */
const longTestMs = 2500;
const isLong = (test: TestRef) => (test.durationMs ?? 0) >= longTestMs;
const withTests = (target: TargetEntry, keep: (test: TestRef) => boolean): TargetEntry => ({ ...target, tests: target.tests && target.tests.filter(keep) });
const skipsNothing = others.filter((target) => target.stopOnceFailed === null && target.tests !== null);
const ofWork = [
  { name: 'learns reach, model', grep: grepOfEach(learning), testMatch: modelSpecs },
  { name: 'learns reach', grep: grepOfEach(learning), testIgnore: [modelSpecs, auditSpec] },
  { name: 'model first', grep: grepOfEach(others.filter(modelFirst)), testMatch: modelSpecs },
  { name: 'long first', grep: grepOfEach(skipsNothing.map((target) => withTests(target, isLong))), testIgnore: [modelSpecs, auditSpec] },
  {
    name: 'suite',
    grep: grepOfEach(others.map((target) => (skipsNothing.includes(target) ? withTests(target, (test) => !isLong(test)) : target))),
    testIgnore: [modelSpecs, auditSpec],
  },
  { name: 'model last', grep: grepOfEach(others.filter((target) => !modelFirst(target))), testMatch: modelSpecs },
];

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
  reporter: [['../src/runner/reporter.ts'], ...(process.env[timingsEnv] ? [['../bench/timings.ts'] as const] : [])],
  grep: targets.map(grepOf),
  // The final audit runs once every other test ended (the teardown of a project without tests that the others depend on).
  projects: [
    { name: 'start', testMatch: /(?!)/, teardown: 'audit' },
    ...ofWork.map((project) => ({ ...project, dependencies: ['start'] })),
    { name: 'audit', testMatch: auditSpec },
  ],
});
