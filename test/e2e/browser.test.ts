/**
 * Where the browser checks' Chromium comes from (src/core/chromium.ts), and a run of them with the
 * Chromium that `npm install` brings, every other source hidden: a machine with no browser at all.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { browserSourceEnv, findChromium } from '../../src/core/chromium.ts';
import { cli, readReport, tempDir } from '../support/cli.ts';

test('the browser: CHROMIUM_PATH first, an unknown source or a missing path named', async () => {
  assert.deepEqual(await findChromium({ CHROMIUM_PATH: '/nowhere/chromium' }), {
    executablePath: null,
    reason: 'CHROMIUM_PATH /nowhere/chromium does not exist',
  });
  const unknown = await findChromium({ [browserSourceEnv]: 'firefox' });
  assert.match(unknown.executablePath === null ? unknown.reason : '', /names no browser source \(env, playwright, system, npm\)/);
  const hidden = await findChromium({ [browserSourceEnv]: 'env' });
  assert.deepEqual(hidden, { executablePath: null, reason: `no Chromium from env (${browserSourceEnv})` });
});

test('the npm Chromium: found with every other source hidden, its version said', async () => {
  const found = await findChromium({ [browserSourceEnv]: 'npm' });
  assert.ok(found.executablePath, found.executablePath === null ? found.reason : '');
  assert.equal(found.source, 'npm');
  assert.match(found.version, /^Chromium \d+\./);
});

test('every browser check runs with the npm Chromium alone, and the header says which browser ran', { timeout: 300_000 }, async (t) => {
  const out = tempDir(t, 'npm-browser-');
  const { CHROMIUM_PATH: _hidden, ...env } = process.env;
  const result = await cli(['run', '--grep', 'PAGE', '--allow-partial', '--out', out], { env: { ...env, [browserSourceEnv]: 'npm' }, timeoutMs: 280_000 });
  assert.match(result.stdout, /browser: Chromium \d+\.\S+ \(npm, /, result.stdout);
  assert.ok(readReport(join(out, 'report.json')).target.findings.some((finding) => /^browser: Chromium .* \(npm, /.test(finding)));
  const report = readReport(join(out, 'report.json'));
  const pages = report.clauses.filter((clause) => clause.id.startsWith('PAGE-'));
  assert.ok(pages.length > 0);
  for (const clause of pages)
    assert.equal(clause.status, 'passed', `${clause.id}: ${JSON.stringify(clause.tests.map((test) => [test.title, test.status, test.reason]))}`);
  assert.equal(result.code, 0, result.stdout + result.stderr);
});
