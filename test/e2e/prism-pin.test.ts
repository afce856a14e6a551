import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { loadProfile, builtInProfile } from '../../src/core/profile.ts';
import { startPrism } from '../../src/runner/target.ts';
import { packageRoot, tempDir } from '../support/cli.ts';

const pinned = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')).dependencies['@stoplight/prism-cli'] as string;
const hangForMs = 10_000;
const installTimeoutMs = 120_000;

// Prism is pinned to 5.14.2 because 5.15.11 and 5.16.0 never answer a body that is not JSON (the
// suite's CHK-12 check finds it: the run waits out its request time-out). This test installs the
// newest Prism and fails the day it answers such a body, so that the pin can be lifted.
test('the newest Prism still hangs on a body that is not JSON, which is why Prism stays pinned', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t, 'prism-latest-');
  try {
    execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '@stoplight/prism-cli@latest'], {
      stdio: 'pipe',
      // A slow registry must not hold the test (and CI) past its own time-out: execFileSync blocks the timer that would end it.
      timeout: installTimeoutMs,
    });
  } catch (error) {
    t.skip(`the newest Prism could not be installed from the npm registry: ${String(error).split('\n')[0]}`);
    return;
  }
  const latest = JSON.parse(readFileSync(join(dir, 'node_modules/@stoplight/prism-cli/package.json'), 'utf8'));
  if (latest.version === pinned) return t.skip(`the newest Prism is the pinned ${pinned}`);
  if (!semver.satisfies(process.versions.node, latest.engines?.node ?? '*')) {
    return t.skip(`Prism ${latest.version} needs Node ${latest.engines.node}; this is ${process.versions.node}`);
  }
  const prism = await startPrism(loadProfile(builtInProfile('prism.json')), dir, join(dir, 'node_modules/.bin/prism'));
  t.after(() => prism.stop());
  const post = (body: string) =>
    fetch(`${prism.baseUrl}/checkouts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(hangForMs) }).then(
      (response) => `answered ${response.status}`,
      (error: Error) => (error.name === 'TimeoutError' ? 'hung' : `failed: ${error.message}`),
    );
  assert.match(await post('{}'), /^answered \d+$/, `Prism ${latest.version} serves a JSON body`);
  const outcome = await post('{"payment": {"amount": 5');
  assert.equal(
    outcome,
    'hung',
    `Prism ${latest.version} ${outcome} on a body that is not JSON: the pin to ${pinned} can be lifted (docs/installation.md, "Prism")`,
  );
});
