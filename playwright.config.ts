import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { codeFile } from './src/core/package-root.ts';
import { readRunPlan, runConfigEnv } from './src/core/run-config.ts';
import { blobDirEnv } from './src/runner/playwright.ts';
import { auditProject, auditSpec, lastsEventMs, paysInBrowser, waitsOutEventMs } from './src/harness/pools.ts';
import { timingsEnv } from './src/runner/timings.ts';

// The conformance run. Started by "checkout-conformance run", which writes the run's plan first (the
// run config replaces it once the target answered: the workers wait for that, src/core/run-config.ts),
// passes --grep, --workers and --global-timeout, and builds the report from what the conformance
// reporter writes. A sharded run also writes Playwright's blob report, for "checkout-conformance merge".
// Without a run config the specs can still be listed (npx playwright test --list --grep @CHK-5, an
// editor's test explorer): the tests themselves then stop at their first fixture, saying why.
const configured = process.env[runConfigEnv] !== undefined;
const run = configured ? readRunPlan() : { outDir: 'reports/playwright', profile: { timeouts: { eventMs: 0 } } };
const blobDir = process.env[blobDirEnv];
// A part of a sharded run writes a blob report, and only such a part.
const sharded = blobDir !== undefined;
const afterStart = sharded ? { dependencies: ['start'] } : {};
const cores = availableParallelism();

// Pools of workers, so that waiting and latency overlap instead of adding up. Each worker costs about
// 2 s of CPU to start (Playwright's own modules), so none has more than it keeps busy.
const workers = {
  // The browser's tests spend CPU in Chromium.
  browser: Math.max(1, Math.floor(cores / 2)),
  // The API tests wait on the target, and on eventMs, and their requests overlap inside a test too
  // (src/harness/pace.ts): one more than the cores keeps the cores busy (2 cores, taking turns 5 times: the
  // embedded sandbox 10.1 s against 10.6 s with twice the cores, and 1.2 s less CPU; the 150 ms
  // target, whose model sets its time, 57.8 s against 58.2 s).
  api: cores + 1,
};
// Tests that wait out eventMs for what must not happen sit idle for it, and the model explores for
// as long: where that is long, one worker each (5 waiting, the model, and the webhook's tests, which
// take turns with it), started first, so that the run waits one eventMs window beside everything
// else. A short eventMs (the embedded sandbox's 1 s) costs less than starting them: side by side on
// 2 cores, 5 more workers took 14 s more CPU and 23 s more time than they saved.
const waitingWorkers = run.profile.timeouts.eventMs >= 10_000 ? 7 : 0;
const inBrowser = new RegExp(paysInBrowser);
const waiting = new RegExp(`${waitsOutEventMs}|${lastsEventMs}`);
const ownPoolForWaiting = waitingWorkers > 0;

export default defineConfig({
  // The suite's own tests of the runner point this at a folder of small throw-away specs.
  testDir: process.env.CHECKOUT_CONFORMANCE_SPECS ?? './specs',
  outputDir: `${run.outDir}/test-results`,
  fullyParallel: true,
  workers: waitingWorkers + workers.browser + workers.api,
  retries: 0,
  timeout: 60_000,
  reporter: [
    ['list'],
    ...(configured ? [[codeFile('src/runner/reporter')] as const] : []),
    ...(blobDir ? [['blob', { outputDir: blobDir }] as const] : []),
    // npm run bench: when each test ran, for the run's critical path.
    ...(process.env[timingsEnv] ? [[codeFile('src/runner/timings')] as const] : []),
  ],
  // Playwright hands tests out in the order of their projects, then of their files' paths. The specs
  // of the resources alone (specs/resources/: requests and their answers, quick) come after those that
  // wait out time (the model, notifications, validity windows), so that the waits start first and the
  // quick tests fill the cores beside them (the embedded sandbox, 2 cores: about 3 s less than in the
  // other order). The final audit (specs/whole-run/audit.spec.ts) runs once every other test ended,
  // passed or not: the last of the API tests, it holds Playwright's exclusive lock, and starts in a
  // worker already started (one of its own took 0.4 s to start, every other core idle). A part of a
  // sharded run audits what it created too: there, the teardown of a project without tests that every
  // other depends on (Playwright shares out the tests of the others, and runs that one in every part).
  projects: [
    ...(sharded ? [{ name: 'start', testMatch: /(?!)/, teardown: auditProject }] : []),
    ...(ownPoolForWaiting ? [{ name: 'waiting', grep: waiting, testIgnore: auditSpec, workers: waitingWorkers, ...afterStart }] : []),
    { name: 'browser', grep: inBrowser, grepInvert: ownPoolForWaiting ? waiting : undefined, workers: workers.browser, ...afterStart },
    // The waiting pool's workers, once its tests are done, take API tests (its tests, queued first, take them first).
    {
      name: 'api',
      testIgnore: sharded ? auditSpec : undefined,
      grepInvert: ownPoolForWaiting ? [waiting, inBrowser] : inBrowser,
      workers: waitingWorkers + workers.api,
      ...afterStart,
    },
    // Its tests in one worker, in turn: a worker of its own costs more CPU to start than a test of it takes.
    ...(sharded ? [{ name: auditProject, testMatch: auditSpec, fullyParallel: false }] : []),
  ],
});
