/**
 * Hosted pages built another way, and no test helpers, as on a provider's real sandbox: the
 * sandbox's portal page style (card fields in an iframe, no method chooser, a script redirect,
 * Portuguese) behind a proxy that hides the helpers, and profiles/sandbox-portal.json (frame
 * selectors, customers registered out of band). Everything is verified through the pages, but the
 * clauses that need the interbank network's confirmation, skipped with that reason.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { withoutTestHelpers } from '../../mutants/catalogue.ts';
import { startProxy } from '../../mutants/proxy.ts';
import { clauses } from '../../src/core/clauses.ts';
import { needs } from '../../src/core/needs.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { cli, packageRoot, readReport, tempDir } from '../support/cli.ts';

const needInterbank = ['REF-3', 'REF-6', 'REF-7', 'EVT-1', 'EVT-2', 'EVT-3'];

test('the portal page style without test helpers: every clause but the interbank ones verified, and passed', { timeout: 300_000 }, async (t) => {
  const sandbox = await startSandbox({ db: ':memory:', pageStyle: 'portal' });
  const proxy = await startProxy({ upstream: sandbox.url, transform: withoutTestHelpers });
  t.after(async () => {
    await proxy.close();
    await sandbox.close();
  });
  const out = tempDir(t, 'portal-');
  const result = await cli(['run', '--base-url', proxy.url, '--profile', join(packageRoot, 'profiles/sandbox-portal.json'), '--out', out], {
    timeoutMs: 280_000,
  });
  const report = readReport(join(out, 'report.json'));
  const judged = report.clauses.filter((clause) => clause.level !== 'INFO');
  assert.equal(judged.length, clauses().filter((clause) => clause.level !== 'INFO').length);
  for (const clause of judged) {
    const tests = JSON.stringify(clause.tests.map((test) => [test.title, test.status, test.reason]));
    if (needInterbank.includes(clause.id)) {
      assert.equal(clause.status, 'skipped', `${clause.id}: ${tests}`);
      for (const skipped of clause.tests) assert.equal(skipped.reason, needs.interbank.reason, `${clause.id}: ${tests}`);
    } else {
      assert.equal(clause.status, 'passed', `${clause.id}: ${tests}`);
    }
  }
  assert.equal(report.verdict, 'incomplete', result.stdout);
  assert.equal(result.code, 2);
});
