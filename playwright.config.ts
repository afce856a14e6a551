import { defineConfig } from '@playwright/test';
import { readRunConfig } from './src/run-config.ts';

// The conformance run. Started by "checkout-conformance run", which writes the run config first.
const run = readRunConfig();

export default defineConfig({
  testDir: './specs',
  outputDir: `${run.outDir}/test-results`,
  fullyParallel: true,
  workers: Number(process.env.CHECKOUT_CONFORMANCE_WORKERS ?? 2),
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
});
