/**
 * The suite's main job, end to end: the embedded reference sandbox must be conformant with every
 * MUST and SHOULD clause passed (none untested, none skipped), and a Prism mock of the project's
 * own OpenAPI document must pass every check a stateless mock can answer, the rest skipped with
 * their reasons.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, readReport, tempDir } from './support/cli.ts';

const runTimeoutMs = 300_000;

test('the reference sandbox is conformant, every MUST and SHOULD clause passed, under --strict', { timeout: runTimeoutMs }, async (t) => {
  const out = tempDir(t, 'conformance-sandbox-');
  const result = await cli(['run', '--strict', '--seed', '20261121', '--out', out], { timeoutMs: runTimeoutMs });
  const report = readReport(out);
  assert.equal(result.code, 0, `${result.stdout.slice(-3000)}\n${result.stderr}`);
  assert.equal(report.verdict, 'conformant');
  assert.equal(report.seed, 20261121);
  const notPassed = report.clauses
    .filter((clause) => clause.level !== 'INFO' && clause.status !== 'passed')
    .map((clause) => `${clause.id}: ${clause.status}`);
  assert.deepEqual(notPassed, []);
  for (const clause of report.clauses.filter((c) => c.level === 'INFO')) assert.equal(clause.status, 'observed', clause.id);
  assert.match(result.stdout, /conformant/);
  assert.match(result.stdout, /report\.html/);
});

test('a Prism mock passes every check it can answer; the rest are skipped with a reason', { timeout: runTimeoutMs }, async (t) => {
  const out = tempDir(t, 'conformance-prism-');
  const result = await cli(['run', '--target', 'prism', '--seed', '7', '--out', out], { timeoutMs: runTimeoutMs });
  const report = readReport(out);
  assert.equal(result.code, 0, `${result.stdout.slice(-3000)}\n${result.stderr}`);
  assert.equal(report.verdict, 'conformant');
  const tests = report.clauses.flatMap((clause) => clause.tests);
  assert.ok(tests.some((test) => test.status === 'passed'), 'some checks ran against the mock');
  for (const skipped of tests.filter((test) => test.status === 'skipped')) {
    assert.ok(skipped.reason && skipped.reason.length > 0, `skipped without a reason: ${skipped.title}`);
  }
  assert.ok(report.clauses.every((clause) => clause.status !== 'failed' && clause.status !== 'warning'));
});
