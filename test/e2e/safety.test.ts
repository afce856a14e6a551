/**
 * Safety on real targets.
 * - A profile marked live sends nothing but GETs unless --allow-writes is given, and the report says
 *   what was skipped for that reason.
 * - No credential (--header, profile header, notification secret) and no full card number reaches
 *   anything the run prints or writes: console, report files, run-config.json, raw results,
 *   Playwright's test-results, Chromium's profile folder.
 * Both run against the reference sandbox behind the mutants' transforming proxy (mutants/proxy.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProxy, type ProxyRequest, type ProxyResponse, type Transform } from '../../mutants/proxy.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { luhnValid } from '../../src/core/cards.ts';
import { builtInProfile, loadProfile } from '../../src/core/profile.ts';
import type { Profile } from '../../src/core/run-config.ts';
import { readReport, tempDir } from '../support/cli.ts';
import { markedRun, reportFiles } from '../support/hostile-run.ts';

// A guard, not a timing: beside the other test files on 2 cores a run has taken 102 s.
const runTimeoutMs = 240_000;
const liveSkipReason = 'live target: writes not allowed without --allow-writes';

/** The sandbox behind the proxy, with a transform; closed after the test. */
async function sandboxBehind(t: { after(fn: () => Promise<void>): void }, transform: Transform, notificationSecret?: string) {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', ...(notificationSecret && { notificationSecret }) });
  const proxy = await startProxy({ upstream: sandbox.url, transform });
  t.after(async () => {
    await proxy.close();
    await sandbox.close();
  });
  return proxy;
}

function writeProfile(dir: string, changes: Partial<Profile>): string {
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify({ ...loadProfile(builtInProfile('sandbox.json')), ...changes }));
  return file;
}

const refused = (request: ProxyRequest): ProxyResponse => ({
  status: 405,
  headers: { 'content-type': 'text/plain' },
  json: undefined,
  text: `the live target refuses ${request.method} ${request.path}`,
});

/** Every file under dir, recursively, as text (binary files as latin1, so that any ASCII secret shows). */
function everythingWritten(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile())
    .map((file) => ({ file, text: readFileSync(file, 'latin1') }));
}

// Side by side: each run waits on its target and its browser more than it computes.
describe('safety on real targets', { concurrency: true }, () => {
  test('a live profile sends only GETs without --allow-writes, and the report names what was skipped for it', { timeout: runTimeoutMs + 10_000 }, async (t) => {
    const seen: string[] = [];
    const proxy = await sandboxBehind(t, {
      request(request) {
        seen.push(`${request.method} ${request.path}`);
        if (request.method !== 'GET') return refused(request);
      },
    });
    const dir = tempDir(t, 'safety-live-');
    const profile = writeProfile(dir, { name: 'live-target', live: true });
    const out = join(dir, 'out');

    const run = await markedRun(['run', '--base-url', proxy.url, '--profile', profile, '--out', out, '--seed', '11', '--runs', '3'], runTimeoutMs);
    assert.deepEqual(
      seen.filter((line) => !line.startsWith('GET ')),
      [],
      'state-changing requests reached the live target',
    );
    assert.ok(seen.length > 1, 'the GET checks ran');
    assert.equal(run.code, 2, `${run.stdout.slice(-3000)}\n${run.stderr}`);
    assert.deepEqual(run.leftBehind, []);

    const report = readReport(out);
    assert.equal(report.verdict, 'incomplete');
    assert.ok(report.reason!.includes(`${liveSkipReason} (to verify: --allow-writes`), report.reason!);
    const tests = report.clauses.flatMap((clause) => clause.tests);
    const skippedForWrites = tests.filter((test) => test.status === 'skipped' && test.reason === liveSkipReason);
    assert.ok(skippedForWrites.length >= 20, `${skippedForWrites.length} skipped for writes`);
    assert.ok(
      tests.some((test) => test.status !== 'skipped'),
      'some checks ran',
    );
    assert.ok(readFileSync(join(out, 'summary.md'), 'utf8').includes(liveSkipReason), 'summary.md names the reason');
    assert.ok(readFileSync(join(out, 'report.html'), 'utf8').includes(liveSkipReason), 'report.html names the reason');

    // With --allow-writes the same profile writes.
    seen.length = 0;
    const allowed = await markedRun(
      ['run', '--base-url', proxy.url, '--profile', profile, '--out', join(dir, 'allowed'), '--grep', 'CHK-7', '--allow-writes'],
      runTimeoutMs,
    );
    assert.ok(seen.includes('POST /checkouts'), seen.join('\n'));
    assert.deepEqual(allowed.leftBehind, []);
  });

  test('no credential and no full card number in anything the run prints or writes', { timeout: runTimeoutMs + 10_000 }, async (t) => {
    const secrets = { cli: 'Bearer cli-secret-6b1f0c', profile: 'profile-token-93de21', notification: 'notification-secret-77a0e4' };
    const cards = new Set<string>();
    const echoOf = (request: ProxyRequest) => ({ authorization: request.headers.authorization, token: request.headers['x-merchant-token'] });
    // A target that echoes the credentials it gets in every answer (an extra field: still conformant),
    // shows the full card number where the last four digits belong (PML-3 and PML-5 fail with it),
    // fails every payment query with the credentials in the body (REF checks fail with them), and drops
    // id from the redirect after a payment in the browser (PAGE-3 fails with a card typed into the page).
    const proxy = await sandboxBehind(
      t,
      {
        redirect: (location) => location.replace(/([?&])id=[^&]*&?/, '$1'),
        request(request) {
          for (const digits of `${request.text}`.match(/\d{13,19}/g) ?? []) if (luhnValid(digits)) cards.add(digits);
          if (request.route === 'getPayment')
            return { status: 500, headers: { 'content-type': 'application/json' }, json: { echo: echoOf(request) }, text: '' };
        },
        response(response, request) {
          const body = response.json as Record<string, unknown> | undefined;
          if (!body || typeof body !== 'object' || Array.isArray(body)) return;
          if (request.route === 'listMethods' && Array.isArray(body.data)) {
            for (const method of body.data as Array<Record<string, unknown>>)
              if (method.type === 'CC' && cards.size > 0) method.last4Digitis = [...cards].at(-1);
          }
          response.json = { echo: echoOf(request), ...body };
        },
      },
      secrets.notification,
    );
    const dir = tempDir(t, 'safety-secrets-');
    const profile = writeProfile(dir, { name: 'echoing-target', headers: { 'X-Merchant-Token': secrets.profile }, notificationSecret: secrets.notification });
    const out = join(dir, 'out');

    const run = await markedRun(
      [
        'run',
        '--base-url',
        proxy.url,
        '--profile',
        profile,
        '--header',
        `Authorization: ${secrets.cli}`,
        '--out',
        out,
        '--seed',
        '12',
        '--runs',
        '3',
        '--keep-artifacts',
        '--grep',
        'PML-3|PML-5|TOK-1|REF-3|EVT-5|SEC-1|PAGE-3|PAGE-4',
      ],
      runTimeoutMs,
    );
    assert.equal(run.code, 1, `${run.stdout.slice(-3000)}\n${run.stderr}`);
    assert.deepEqual(run.leftBehind, []);
    const report = readReport(out);
    const status = (id: string) => report.clauses.find((clause) => clause.id === id)!.status;
    for (const id of ['PML-3', 'REF-3', 'PAGE-3', 'PAGE-4']) assert.equal(status(id), 'failed', id);
    assert.ok(cards.size > 0, 'the run paid with card numbers');
    for (const file of reportFiles) assert.ok(readdirSync(out).includes(file), file);

    // The browser profile and Playwright's test results leave the report folder; kept, they are written too.
    const keptIn = /artifacts \(browser profile, test-results\) kept in (\S+)/.exec(run.stdout)?.[1];
    assert.ok(keptIn, 'the run says where it kept its artifacts');
    t.after(() => rmSync(keptIn, { recursive: true, force: true }));
    const written = [{ file: 'stdout', text: run.stdout }, { file: 'stderr', text: run.stderr }, ...everythingWritten(out), ...everythingWritten(keptIn)];
    assert.ok(
      written.some(({ file }) => file.includes('test-results')),
      'Playwright wrote its test results',
    );
    const leaks: string[] = [];
    for (const { file, text } of written) {
      for (const secret of [...Object.values(secrets), 'cli-secret-6b1f0c']) if (text.includes(secret)) leaks.push(`${file}: credential ${secret}`);
      for (const card of cards) if (text.includes(card)) leaks.push(`${file}: card number ${card}`);
    }
    assert.deepEqual(leaks, []);
  });
});
