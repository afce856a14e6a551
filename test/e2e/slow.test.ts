/**
 * Slow is not wrong. A test helper that answers after the request time-out leaves its test's
 * clauses not verified, with a reason that names the time-out and what to raise; an API operation
 * that answers after it fails its clause, the wait in the evidence.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { cli, packageRoot, readReport, tempDir } from '../support/cli.ts';
import { startSlowTarget } from '../support/slow-target.ts';

// Wide enough that a loaded machine answers the preflight and the quick requests within it.
const requestTimeoutMs = 1500;
const lateMs = 3000;
const runMs = 150_000;
/** The sandbox's profile: the run knows the target has test helpers, and does not probe them. */
const againstSandbox = (url: string, out: string) => [
  'run',
  '--base-url',
  url,
  '--profile',
  join(packageRoot, 'profiles/sandbox.json'),
  '--request-timeout-ms',
  String(requestTimeoutMs),
  '--grep',
  'CHK-6',
  '--runs',
  '3',
  '--out',
  out,
];

/** A run of CHK-6's tests against the sandbox behind a target whose answers to `isLate` come lateMs late. */
async function runAgainstSlowTarget(t: TestContext, isLate: (method: string, path: string) => boolean, prefix: string) {
  const target = await startSlowTarget(isLate, lateMs);
  t.after(() => target.close());
  const out = tempDir(t, prefix);
  const result = await cli(againstSandbox(target.url, out), { timeoutMs: runMs });
  return { result, report: readReport(join(out, 'report.json')) };
}

// Side by side: both runs wait on their slow targets.
describe('slow targets', { concurrency: true }, () => {
  test(
    'test helpers that answer after the time-out: incomplete, their clauses not verified, the time-out and what to raise named',
    { timeout: runMs + 10_000 },
    async (t) => {
      const { result, report } = await runAgainstSlowTarget(t, (_method, path) => path.startsWith('/test-helpers/'), 'slow-helpers-');
      assert.equal(report.verdict, 'incomplete', result.stdout + result.stderr);
      assert.equal(result.code, 2);
      const clause = report.clauses.find((candidate) => candidate.id === 'CHK-6')!;
      assert.equal(clause.status, 'skipped', `${report.reason}\n${JSON.stringify(clause.tests.map((test) => [test.title, test.status, test.reason]))}`);
      for (const test of clause.tests)
        assert.match(
          test.reason ?? '',
          new RegExp(`a test helper gave no complete answer within the request time-out of ${requestTimeoutMs} ms \\(POST /test-helpers/customers\\)`),
        );
      assert.ok(report.coverage.skipped.includes('CHK-6'));
      assert.match(
        report.reason ?? '',
        new RegExp(`CHK-6.*time-out of ${requestTimeoutMs} ms.*to verify: .*timeouts\\.requestMs or --request-timeout-ms`, 's'),
      );
    },
  );

  test('an API operation that answers after the time-out fails its clause, the wait in the evidence', { timeout: runMs + 10_000 }, async (t) => {
    const { result, report } = await runAgainstSlowTarget(t, (method, path) => method === 'POST' && path === '/checkouts', 'slow-api-');
    assert.equal(report.verdict, 'non-conformant', result.stdout + result.stderr);
    assert.equal(result.code, 1);
    const clause = report.clauses.find((candidate) => candidate.id === 'CHK-6')!;
    assert.equal(clause.status, 'failed');
    const notes = clause.tests.flatMap((test) => test.evidence.map((evidence) => evidence.note ?? ''));
    assert.ok(
      notes.some((note) => new RegExp(`no complete answer \\(waited \\d{4} ms\\): no complete answer within ${requestTimeoutMs} ms`).test(note)),
      notes.join('\n'),
    );
  });
});
