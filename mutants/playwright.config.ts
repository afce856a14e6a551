/**
 * The whole mutant catalogue as one Playwright run, started by mutants/run.ts: every candidate is a
 * target of specs/targets.ts, so that each test is declared once per candidate (a mutant's, only
 * those of its own clause) and workers are kept across candidates instead of started for each.
 */
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { grepPattern, literalPattern } from '../src/runner/playwright.ts';
import { describeTitle, targetsEnv, targetsOfRun, type TargetEntry, type TestRef } from '../specs/targets.ts';
import { timingsEnv } from '../bench/timings.ts';

const targets = targetsOfRun();
if (!targets) throw new Error('no targets: run the catalogue through "npm run mutants"');
// Beside the targets file, in the catalogue's own temporary folder: a failing test's artefacts stay out of the checkout.
const outputDir = join(dirname(process.env[targetsEnv]!), 'test-results');

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
 * The model's tests judge most clauses, so they reach most mutants, and are the slowest: queued after
 * every other test (Playwright runs its projects' tests in order), they find most mutants' proof
 * already in and are skipped (stopOnceFailed).
 */
const modelSpecs = /\/model[^/]*\.spec\.ts$/;
const auditSpec = /\/audit\.spec\.ts$/;

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
    { name: 'suite', testIgnore: [modelSpecs, auditSpec], dependencies: ['start'] },
    { name: 'model', testMatch: modelSpecs, dependencies: ['start'] },
    { name: 'audit', testMatch: auditSpec },
  ],
});
