import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { codeFile } from './src/package-root.ts';
import { readRunConfig } from './src/run-config.ts';
import { blobDirEnv } from './src/runner/playwright.ts';

// The conformance run. Started by "checkout-conformance run", which writes the run config first,
// passes --grep, --workers and --global-timeout, and builds the report from what the conformance
// reporter writes. A sharded run also writes Playwright's blob report, for "checkout-conformance merge".
const run = readRunConfig();
const blobDir = process.env[blobDirEnv];

export default defineConfig({
  // The suite's own tests of the runner point this at a folder of small throw-away specs.
  testDir: process.env.CHECKOUT_CONFORMANCE_SPECS ?? './specs',
  outputDir: `${run.outDir}/test-results`,
  fullyParallel: true,
  // The run waits on the target more than it computes: at least two workers, one per core beyond.
  workers: Math.max(2, availableParallelism()),
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], [codeFile('src/runner/reporter')], ...(blobDir ? [['blob', { outputDir: blobDir }] as const] : [])],
});
