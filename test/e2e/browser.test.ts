/**
 * Where the browser checks' Chromium comes from (src/core/chromium.ts). A run of every browser check
 * with the Chromium that `npm install` brings, every other source hidden (a machine with no browser at
 * all), is the installed package's embedded run in test/e2e/install.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { browserSourceEnv, findChromium, mayHavePlaywrightsBrowsers } from '../../src/core/chromium.ts';
import { tempDir } from '../support/cli.ts';

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

test("Playwright is asked for its Chromium only where it may keep browsers: PLAYWRIGHT_BROWSERS_PATH, or ms-playwright in the user's cache", (t) => {
  const home = tempDir(t, 'home-');
  assert.equal(mayHavePlaywrightsBrowsers({}, home), false);
  assert.equal(mayHavePlaywrightsBrowsers({ PLAYWRIGHT_BROWSERS_PATH: '0' }, home), true);
  const cache = tempDir(t, 'cache-');
  mkdirSync(join(cache, 'ms-playwright'));
  assert.equal(mayHavePlaywrightsBrowsers({ XDG_CACHE_HOME: cache }, home), true);
  mkdirSync(join(home, '.cache', 'ms-playwright'), { recursive: true });
  assert.equal(mayHavePlaywrightsBrowsers({}, home), true);
});
