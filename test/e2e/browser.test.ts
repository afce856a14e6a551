/**
 * Where the browser checks' Chromium comes from (src/core/chromium.ts). A run of every browser check
 * with the Chromium that `npm install` brings, every other source hidden (a machine with no browser at
 * all), is the installed package's embedded run in test/e2e/install.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserSourceEnv, findChromium } from '../../src/core/chromium.ts';

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
