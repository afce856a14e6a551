import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readRunPlan, runConfigWritten, writeWhole, type RunConfig, type RunPlan } from '../../src/core/run-config.ts';
import { builtInProfile, loadProfile } from '../../src/core/profile.ts';

test('a worker waits while the run plan is in the run config’s place, and reads the run config once it replaced it; Playwright’s config reads either', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'run-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'run-config.json');
  const profile = loadProfile(builtInProfile('sandbox.json'));
  const plan: RunPlan = { plan: true, outDir: dir, profile, headers: { 'X-Token': 'secret' } };
  const run: RunConfig = {
    outDir: dir,
    profile,
    headers: plan.headers,
    baseUrl: 'http://127.0.0.1:1',
    targetKind: 'sandbox',
    seed: 1,
    runs: 1,
    strict: false,
    allowWrites: true,
    callbackHost: '127.0.0.1',
    publicCallbackUrl: null,
    chromium: { executablePath: null, reason: 'not needed' },
  };
  writeWhole(file, plan);
  assert.equal(readRunPlan(file).outDir, dir);
  let read: RunConfig | null = null;
  const waiting = runConfigWritten(file).then((config) => (read = config));
  await sleep(50);
  assert.equal(read, null, 'no run config yet: the worker still waits');
  writeWhole(file, run);
  await waiting;
  assert.deepEqual(read, run);
  assert.equal(readRunPlan(file).outDir, dir);
});
