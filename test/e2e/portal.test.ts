/**
 * Hosted pages built another way, and no test helpers, as on a provider's real sandbox: the
 * sandbox's portal page style (card fields in an iframe, no method chooser, a script redirect,
 * Portuguese) behind a proxy that hides the helpers, and profiles/sandbox-portal.json (frame
 * selectors, customers registered out of band). Every clause the pages drive (the pages', the stored
 * methods' and the lists') is verified through them; the clauses that need the interbank network's
 * confirmation are skipped with that reason. The API's own clauses without helpers are the helperless
 * run's (conformance.test.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { withoutTestHelpers } from '../../mutants/catalogue.ts';
import { startProxy } from '../../mutants/proxy.ts';
import { needs } from '../../src/core/needs.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { cli, packageRoot, readReport, tempDir } from '../support/cli.ts';

const needInterbank = ['REF-3', 'REF-6', 'REF-7', 'EVT-1', 'EVT-2', 'EVT-3'];

/** The clauses whose tests drive the hosted pages (a payment without helpers is made on them): the rest are the helperless run's (conformance.test.ts). */
const drivenByPages = ['PAGE-', 'TOK-', 'PML-'];

test(
  'the portal page style without test helpers: every clause of the pages, stored methods and lists verified, and passed',
  { timeout: 300_000 },
  async (t) => {
    const sandbox = await startSandbox({ db: ':memory:', pageStyle: 'portal' });
    const proxy = await startProxy({ upstream: sandbox.url, transform: withoutTestHelpers });
    t.after(async () => {
      await proxy.close();
      await sandbox.close();
    });
    const out = tempDir(t, 'portal-');
    const result = await cli(
      [
        'run',
        '--base-url',
        proxy.url,
        '--profile',
        join(packageRoot, 'profiles/sandbox-portal.json'),
        '--grep',
        drivenByPages.join('|'),
        '--allow-partial',
        '--out',
        out,
      ],
      { timeoutMs: 280_000 },
    );
    const report = readReport(join(out, 'report.json'));
    for (const clause of report.clauses.filter((one) => one.level !== 'INFO')) {
      const tests = JSON.stringify(clause.tests.map((test) => [test.title, test.status, test.reason]));
      if (needInterbank.includes(clause.id)) {
        if (clause.status !== 'untested') for (const skipped of clause.tests) assert.equal(skipped.reason, needs.interbank.reason, `${clause.id}: ${tests}`);
      } else if (drivenByPages.some((family) => clause.id.startsWith(family))) {
        assert.equal(clause.status, 'passed', `${clause.id}: ${tests}`);
      } else {
        // Reached only by the tests of the pages' clauses that also judge them (the model, skipped without helpers, among them).
        assert.ok(['passed', 'untested', 'skipped'].includes(clause.status), `${clause.id}: ${clause.status} ${tests}`);
      }
    }
    assert.equal(report.verdict, 'conformant', result.stdout);
    assert.equal(result.code, 0);
  },
);
