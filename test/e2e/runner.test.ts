import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunOptions } from '../../src/runner/options.ts';
import { UsageError } from '../../src/core/command-line.ts';
import { blobDirEnv, grepPattern } from '../../src/runner/playwright.ts';
import { auditProject } from '../../src/harness/pools.ts';
import { readTimings, timingsEnv } from '../../src/runner/timings.ts';
import { freePort } from '../../src/runner/processes.ts';
import { builtInProfile, loadProfile, ProfileError, runHeaders, withoutPlaceholders } from '../../src/core/profile.ts';
import type { Report } from '../../src/report/report.ts';
import { runConfigEnv } from '../../src/core/run-config.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { rawJournalFile } from '../../src/report/raw-results.ts';
import { cli, packageRoot, readReport, specFolder, startCli, tempDir } from '../support/cli.ts';

const reportFiles = ['junit.xml', 'report.html', 'report.json', 'summary.md'];

/** A stand-in target for specs of a test's own: nothing found where it reads, a refusal where it writes (a target that answers 404 to everything stops the run at its probe). */
const answersNothingFound = (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) =>
  void response.writeHead(request.method === 'GET' ? 404 : 400, { 'content-type': 'application/json' }).end('{}');

test('options: defaults, repeatable headers, and bad values refused', () => {
  const options = parseRunOptions(['--header', 'Authorization: Basic abc', '--header=X-Id:  7 ', '--seed=-5', '--strict']);
  assert.deepEqual(options.headers, { Authorization: 'Basic abc', 'X-Id': '7' });
  assert.equal(options.seed, -5);
  assert.equal(options.runs, 100);
  assert.equal(options.strict, true);
  assert.equal(options.baseUrl, null);
  for (const bad of [
    ['--nope'],
    ['--seed', '1.5'],
    ['--runs', '0'],
    ['--base-url', 'ftp://x'],
    ['--base-url', 'not a url'],
    ['--target', 'wiremock'],
    ['--target', 'prism', '--base-url', 'http://x'],
    ['--header', 'no colon'],
    ['extra'],
    ['--workers', 'two'],
    ['--seed'],
    ['--seed', '-5'],
  ]) {
    assert.throws(() => parseRunOptions(bad), UsageError, bad.join(' '));
  }
});

test('--grep: a clause ID matches exactly that clause, other text is literal', () => {
  // Playwright matches its --grep, case-insensitively, against the title followed by the tags.
  const matches = (grep: string, titleWithTags: string) => new RegExp(grepPattern(grep), 'gi').test(titleWithTags);
  assert.ok(matches('CHK-1', 'checkouts › accepts a valid body @CHK-1'));
  assert.ok(matches('CHK-1', 'two clauses @CHK-1 @CHK-2'));
  for (const other of ['@CHK-10', '@CHK-11', '@CHK-12', '@CHK-13', '@XCHK-1']) assert.ok(!matches('CHK-1', `t ${other}`), other);
  assert.ok(matches('CHK-5|REF-2', 't @REF-2'));
  assert.ok(!matches('CHK-5|REF-2', 't @REF-20'));
  assert.ok(matches('page_layout (default)', 'carries page_layout (default) @CHK-5'));
  assert.ok(!matches('a.c', 'abc'));
});

test('profiles: the shipped ones are valid; a bad one is named; placeholders must be filled', () => {
  for (const file of ['sandbox.json', 'prism.json'] as const) loadProfile(builtInProfile(file));
  const example = loadProfile(join(packageRoot, 'profiles/example-service.json'));
  assert.throws(() => runHeaders(example, {}), /header Authorization still holds the profile's placeholder/);
  const filled = runHeaders({ ...example, notificationSecret: 'the-private-key' }, { authorization: 'Basic eDp5', 'PayPay-ClientId': '123456789' });
  assert.deepEqual(filled, { authorization: 'Basic eDp5', 'PayPay-ClientId': '123456789' });
  assert.throws(() => runHeaders(example, { authorization: 'Basic eDp5', 'PayPay-ClientId': '123456789' }), /notificationSecret/);
  const prism = loadProfile(builtInProfile('prism.json'));
  assert.deepEqual(prism.capabilities, { testHelpers: false, hostedPages: false, stateful: false, refusesBrokenRules: false });

  const dir = mkdtempSync(join(tmpdir(), 'profile-test-'));
  try {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...prism, capabilities: { ...prism.capabilities, stateful: 'no' } }));
    assert.throws(
      () => loadProfile(bad),
      (error: Error) => error instanceof ProfileError && /\/capabilities\/stateful must be boolean/.test(error.message),
    );
    // Every problem at once, each with its path, and the schema named.
    writeFileSync(
      bad,
      JSON.stringify({ ...prism, capabilities: { ...prism.capabilities, stateful: 'no' }, timeouts: { ...prism.timeouts, requestMs: 'slow' }, colour: 'red' }),
    );
    assert.throws(
      () => loadProfile(bad),
      (error: Error) =>
        /does not match profiles\/profile\.schema\.json \(3 problems\): .*\/capabilities\/stateful must be boolean.*\/timeouts\/requestMs must be integer/.test(
          error.message,
        ) && /"colour"/.test(error.message),
    );
    writeFileSync(bad, '{ not json');
    assert.throws(() => loadProfile(bad), ProfileError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('profiles: a placeholder selector, customer or declined card counts as absent; filled ones stay', () => {
  const example = withoutPlaceholders(loadProfile(join(packageRoot, 'profiles/example-service.json')));
  assert.deepEqual(example.selectors, {});
  assert.deepEqual(example.customers, []);
  assert.equal(example.declinedCardNumber, undefined);
  const portal = loadProfile(join(packageRoot, 'profiles/sandbox-portal.json'));
  assert.deepEqual(withoutPlaceholders(portal), { ...portal, declinedCardNumber: portal.declinedCardNumber });
});

test('cli: a bad option is one line on stderr and exit 2', async () => {
  for (const args of [['run', '--bogus'], ['run', '--seed', 'x'], ['frobnicate']]) {
    const { code, stdout, stderr } = await cli(args);
    assert.equal(code, 2, args.join(' '));
    assert.equal(stdout, '');
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
    assert.match(stderr, /^checkout-conformance: /);
  }
  const version = await cli(['--version']);
  assert.equal(version.code, 0);
  assert.equal(version.stdout.trim(), JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')).version);
});

test('cli: an unreachable target is incomplete, exit 2, four files, within seconds', async (t) => {
  const out = tempDir(t, 'unreachable-');
  const port = await freePort();
  const started = Date.now();
  const { code, stdout, stderr } = await cli([
    'run',
    '--base-url',
    `http://127.0.0.1:${port}`,
    '--out',
    out,
    '--header',
    'Authorization: Basic c2VjcmV0OnNlY3JldA==',
  ]);
  assert.equal(code, 2);
  assert.ok(Date.now() - started < 30_000, 'took too long'); // a guard against a hang, generous for a loaded CI machine
  assert.doesNotMatch(stderr + stdout, /\n\s+at /, 'stack trace');
  assert.match(stdout, /unreachable/);
  assert.deepEqual(readdirSync(out).sort(), reportFiles);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  assert.equal(report.verdict, 'incomplete');
  assert.match(report.reason!, /unreachable.*ECONNREFUSED/);
  assert.ok(report.clauses.every((clause) => clause.status === 'untested'));
  for (const file of reportFiles) assert.ok(!readFileSync(join(out, file), 'utf8').includes('c2VjcmV0OnNlY3JldA=='), file);
});

test('cli: a run through Playwright, --grep CHK-1 runs CHK-1 and not CHK-10', async (t) => {
  const out = tempDir(t, 'out-');
  const specs = specFolder(t, {
    'demo.spec.ts': `
import { test, expect } from '@playwright/test';
test('answers @CHK-1', { tag: ['@CHK-1'] }, async ({}, testInfo) => {
  const { baseUrl, headers } = JSON.parse((await import('node:fs')).readFileSync(process.env.CHECKOUT_CONFORMANCE_CONFIG!, 'utf8'));
  const response = await fetch(baseUrl + '/payments/1', { headers });
  await testInfo.attach('evidence', { contentType: 'application/json', body: JSON.stringify([{ request: { method: 'GET', url: baseUrl, headers }, response: null, note: 'token ' + headers['X-Token'] }]) });
  expect(response.status).toBe(404);
});
test('never runs when only the first clause is asked for', { tag: ['@CHK-10'] }, () => { throw new Error('ran'); });
`,
  });
  const target = createServer(answersNothingFound);
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.after(() => target.close());
  const { port } = target.address() as { port: number };

  const { code, stdout } = await cli(
    [
      'run',
      '--base-url',
      `http://127.0.0.1:${port}`,
      '--out',
      out,
      '--grep',
      'CHK-1',
      '--allow-partial',
      '--seed',
      '7',
      '--header',
      'X-Token: very-secret-token',
    ],
    { env: { CHECKOUT_CONFORMANCE_SPECS: specs } },
  );
  assert.equal(code, 0, stdout);
  assert.match(stdout, /conformant: 1 passed/);
  assert.match(stdout, /report .*report\.html/);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  assert.equal(report.verdict, 'conformant');
  assert.equal(report.seed, 7);
  assert.equal(report.grep, 'CHK-1');
  const byId = (id: string) => report.clauses.find((clause) => clause.id === id)!;
  assert.equal(byId('CHK-1').status, 'passed');
  assert.equal(byId('CHK-1').tests[0].evidence[0].note, 'token ***');
  assert.equal(byId('CHK-10').status, 'untested');
  for (const file of readdirSync(out).filter((name) => name.endsWith('.json') || name.endsWith('.html'))) {
    assert.ok(!readFileSync(join(out, file), 'utf8').includes('very-secret-token'), file);
  }
});

test('an INFO observation that crashes is reported observed, with "observation failed: …", never silently', async (t) => {
  const out = tempDir(t, 'out-');
  const fixtures = join(packageRoot, 'src/harness/fixtures.ts');
  const specs = specFolder(t, {
    'observe.spec.ts': `
import { tags, test } from ${JSON.stringify(fixtures)};
test('observes the content types', { tag: tags('ENV-5') }, async ({ observe }) => observe.safely(async () => {
  throw new Error('the target answered nothing to observe');
}));
`,
  });
  const target = createServer(answersNothingFound);
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.after(() => target.close());
  const { port } = target.address() as { port: number };
  const { code, stdout } = await cli(['run', '--base-url', `http://127.0.0.1:${port}`, '--out', out, '--allow-partial'], {
    env: { CHECKOUT_CONFORMANCE_SPECS: specs },
  });
  assert.equal(code, 0, stdout);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  const observed = report.clauses.find((clause) => clause.id === 'ENV-5')!;
  assert.equal(observed.status, 'observed');
  assert.equal(observed.tests[0].observations[0].note, 'observation failed: the target answered nothing to observe');
});

/**
 * A run stopped from outside keeps what it saw. The run is in progress on a test
 * whose stored-method list never answers; the tests before it have ended (one passed, one failed a
 * MUST where asked).
 */
const inProgressSpecs = (withFailure: boolean) => `
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
const { baseUrl } = JSON.parse(readFileSync(process.env.CHECKOUT_CONFORMANCE_CONFIG!, 'utf8'));
test('answers the envelope @ENV-1', { tag: ['@ENV-1', '@MUST'] }, async () => {
  expect((await fetch(baseUrl + '/payments/1')).status).toBe(404);
});
${withFailure ? "test('creates a checkout @CHK-1', { tag: ['@CHK-1', '@MUST'] }, async () => { throw new Error('POST /checkouts answered 500'); });" : ''}
test('lists stored methods @PML-1', { tag: ['@PML-1', '@MUST'] }, async () => {
  await fetch(baseUrl + '/customers/0f8fad5b-d9cb-469f-a165-70867728950e/paymentMethods');
});
`;

async function startHangingListTarget(t: { after(fn: () => void): void }): Promise<string> {
  const held = new Set<import('node:http').ServerResponse>();
  const target = createServer((request, response) => {
    if (request.url?.includes('/paymentMethods')) return void held.add(response);
    answersNothingFound(request, response);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const response of held) response.destroy();
    target.close();
  });
  return `http://127.0.0.1:${(target.address() as { port: number }).port}`;
}

const journalLines = (out: string) =>
  existsSync(join(out, rawJournalFile)) ? readFileSync(join(out, rawJournalFile), 'utf8').trim().split('\n').filter(Boolean).length : 0;

// Side by side: each run waits on its hanging target, for a signal or for its own time-out.
describe('interrupted runs', { concurrency: true }, () => {
  for (const stop of ['SIGINT', 'SIGTERM', '--timeout-ms'] as const) {
    const withFailure = stop === 'SIGTERM';
    test(`an interrupted run (${stop}) writes the four files from what it saw: ended tests judged, the rest untested`, { timeout: 120_000 }, async (t) => {
      const out = tempDir(t, 'interrupted-');
      const specs = specFolder(t, { 'in-progress.spec.ts': inProgressSpecs(withFailure) });
      const baseUrl = await startHangingListTarget(t);
      const args = ['run', '--base-url', baseUrl, '--out', out, '--workers', '1', '--request-timeout-ms', '100000', '--allow-partial'];
      if (stop === '--timeout-ms') args.push('--timeout-ms', '20000');
      const { child, result } = startCli(args, { env: { CHECKOUT_CONFORMANCE_SPECS: specs }, timeoutMs: 110_000 });
      if (stop !== '--timeout-ms') {
        const ended = withFailure ? 2 : 1;
        for (let waited = 0; journalLines(out) < ended && waited < 90_000; waited += 200) await sleep(200);
        assert.equal(journalLines(out), ended, 'the tests before the hanging one ended');
        child.kill(stop);
      }
      const { code, stdout } = await result;
      assert.equal(code, withFailure ? 1 : 2, stdout);
      for (const file of reportFiles) assert.ok(existsSync(join(out, file)), file);
      const report = readReport(out);
      assert.equal(report.verdict, withFailure ? 'non-conformant' : 'incomplete');
      assert.match(report.reason ?? '', stop === '--timeout-ms' ? /time-out was reached/ : new RegExp(`interrupted \\(${stop}\\)`));
      const statusOf = (id: string) => report.clauses.find((clause) => clause.id === id)!.status;
      assert.equal(statusOf('ENV-1'), 'passed');
      if (withFailure) assert.equal(statusOf('CHK-1'), 'failed');
      assert.equal(statusOf('PML-1'), 'untested');
      assert.match(readFileSync(join(out, 'summary.md'), 'utf8'), stop === '--timeout-ms' ? /time-out/ : /interrupted/);
      assert.match(stdout, withFailure ? /non-conformant: 1 passed, 1 failed/ : /incomplete: 1 passed/);
    });
  }
});

/** `npx playwright test --list …` without a run config, as an editor's test explorer runs it: its output, "[project] › file:line › titles" in the order Playwright hands the tests out. */
function listing(args: string[] = [], env: NodeJS.ProcessEnv = {}): string {
  const environment = { ...process.env, ...env };
  delete environment[runConfigEnv];
  const listed = spawnSync(join(packageRoot, 'node_modules', '.bin', 'playwright'), ['test', '--list', ...args], {
    cwd: packageRoot,
    env: environment,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(listed.status, 0, `${listed.stdout}\n${listed.stderr}`);
  return listed.stdout;
}
const testsListed = (env: NodeJS.ProcessEnv = {}) =>
  listing([], env)
    .split('\n')
    .filter((line) => line.startsWith('  ['));

test('the final audit is the last of the API tests Playwright hands out; in a part of a sharded run, a teardown project of its own', (t) => {
  const isAudit = (line: string) => line.includes('› whole-run/audit.spec.ts:');
  const tests = testsListed();
  const audit = tests.filter(isAudit);
  assert.ok(audit.length >= 5, tests.join('\n'));
  assert.deepEqual(tests.slice(-audit.length), audit);
  assert.ok(
    audit.every((line) => line.startsWith('  [api] ›')),
    audit.join('\n'),
  );
  const sharded = testsListed({ [blobDirEnv]: tempDir(t, 'blob-') }).filter(isAudit);
  assert.ok(sharded.length === audit.length && sharded.every((line) => line.startsWith(`  [${auditProject}] ›`)), sharded.join('\n'));
});

test('the final audit starts once every other test ended, in a worker the run started already', async (t) => {
  const out = tempDir(t, 'out-');
  const timings = join(out, 'timings.jsonl');
  // The tests that store payment methods, in the browser's worker, then the audit's of the lists.
  const { code, stdout } = await cli(['run', '--grep', 'TOK-1', '--allow-partial', '--out', out], { env: { [timingsEnv]: timings }, timeoutMs: 120_000 });
  assert.equal(code, 0, stdout);
  const all = readTimings(timings);
  const audit = all.filter(({ title }) => title.startsWith('whole-run/audit.spec.ts'));
  const others = all.filter((timing) => !audit.includes(timing));
  assert.ok(audit.length > 0 && others.some(({ project }) => project === 'browser'), JSON.stringify(all));
  const othersEnded = Math.max(...others.map(({ startedAt, durationMs }) => startedAt + durationMs));
  for (const { title, startedAt, workerIndex } of audit) {
    assert.ok(startedAt >= othersEnded, `${title} started ${othersEnded - startedAt} ms before the others ended`);
    assert.ok(
      others.some((other) => other.workerIndex === workerIndex),
      `${title} ran in a worker of its own`,
    );
  }
});

test('the specs list without a run config (npx playwright test --list --grep @PAGE-4, an editor extension)', () => {
  const listed = listing(['--grep', '@PAGE-4']);
  const total = /Total: (\d+) tests? in \d+ files?/.exec(listed);
  assert.ok(total && Number(total[1]) > 0, listed);
  assert.ok(listed.includes('pages.spec.ts'), listed);
});
