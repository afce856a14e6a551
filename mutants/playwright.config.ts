/**
 * The whole mutant catalogue as one Playwright run, started by mutants/run.ts: one project per
 * candidate, each with its own run config (the typed option runConfigFile, read by the specs' `run`
 * fixture and by the conformance reporter) and, for a mutant, only the tests of its own clause.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import type { CandidateOptions } from '../specs/fixtures.ts';
import { grepPattern } from '../src/runner/playwright.ts';
import { manifestEnv, type ManifestEntry } from './manifest.ts';
import { timingsEnv } from '../bench/timings.ts';

const manifestFile = process.env[manifestEnv];
if (!manifestFile) throw new Error(`${manifestEnv} is not set: run the catalogue through "npm run mutants"`);
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as ManifestEntry[];

export default defineConfig<object, CandidateOptions>({
  testDir: '../specs',
  fullyParallel: false,
  // Tests mostly wait (for events that must not come, for the browser), so more workers than cores
  // keep the cores busy; many more cost CPU in switching between them. Measured on 2 cores (the whole
  // set, npm Chromium): 6 workers 264 s, 8 241–257 s, 10 239 s, 12 272 s, 28 427 s.
  workers: 4 * availableParallelism(),
  retries: 0,
  timeout: 60_000,
  // npm run bench adds when each test ran, for the catalogue's critical path.
  reporter: [['../src/runner/reporter.ts'], ...(process.env[timingsEnv] ? [['../bench/timings.ts'] as const] : [])],
  projects: manifest.map((entry) => ({
    name: entry.name,
    grep: entry.clause ? new RegExp(grepPattern(entry.clause)) : undefined,
    // One worker per candidate: a worker serves one project only, and starting one costs about two
    // seconds of CPU; the other candidates keep the cores busy.
    workers: 1,
    outputDir: `${entry.outDir}/test-results`,
    // A mutant's failures are expected: they keep the worker (specs/fixtures.ts).
    use: { runConfigFile: entry.runConfigFile, failuresExpected: entry.clause !== null },
  })),
});
