import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { exited, spawnGroup, startFailure, toolPath } from '../../src/runner/processes.ts';

test('toolPath finds a package command by module resolution, and says what to install when it is missing', () => {
  const playwright = toolPath('@playwright/test', 'playwright');
  assert.match(playwright, /@playwright[/\\]test[/\\]cli\.js$/);
  assert.ok(existsSync(playwright));
  assert.ok(existsSync(toolPath('@stoplight/prism-cli', 'prism')));
  assert.throws(() => toolPath('no-such-package-here', 'nothing'), /^Error: nothing \(npm package no-such-package-here\) is not installed: run npm install$/);
});

test('a child that could not be started is reported in one line, not swallowed', async () => {
  const child = spawnGroup('/nonexistent/tool', [], { stdio: 'ignore' });
  await exited(child);
  assert.equal(startFailure(child, 'Tool'), 'Tool could not be started: spawn /nonexistent/tool ENOENT');
  await exited(child); // once more, after the error: still resolves
  const started = spawnGroup(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await exited(started);
  assert.equal(startFailure(started, 'node'), null);
});
