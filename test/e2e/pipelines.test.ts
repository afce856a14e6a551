import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { clauses } from '../../src/core/clauses.ts';
import { BaselineError, loadBaseline, type Waiver } from '../../src/report/baseline.ts';
import { diffReports, renderDiff } from '../../src/runner/diff.ts';
import type { RawResults, RawTest } from '../../src/report/raw-results.ts';
import { buildReport, type Report } from '../../src/report/report.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderSummary } from '../../src/report/summary.ts';
import { writeReport } from '../../src/report/write.ts';
import { cli, specFolder, tempDir } from '../support/cli.ts';
import { exampleContext } from '../support/run-context.ts';

const context = exampleContext({ startedAt: '2026-06-01T10:00:00.000Z', finishedAt: '2026-06-01T10:01:00.000Z' });

const rawTest = (clauseId: string, status: RawTest['status']): RawTest => ({
  title: `checks ${clauseId}`,
  file: 'specs/x.spec.ts',
  clauseIds: [clauseId],
  problems: [],
  judged: status !== 'skipped',
  status,
  reason: status === 'passed' ? null : `${clauseId} ${status}`,
  evidence: [],
  observations: [],
  property: null,
  durationMs: 1,
});
const raw = (...tests: RawTest[]): RawResults => ({ status: 'passed', errors: [], tests });
const statusOf = (report: Report, id: string) => report.clauses.find((clause) => clause.id === id)!.status;
const readJson = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

test('diff: regressed, recovered and no longer checked clauses; md for a pull request', () => {
  const old = buildReport(
    clauses(),
    raw(rawTest('CHK-1', 'passed'), rawTest('CHK-2', 'failed'), rawTest('CHK-3', 'passed'), rawTest('CHK-9', 'passed'), rawTest('ENV-5', 'passed')),
    context,
  );
  const current = buildReport(
    clauses(),
    raw(rawTest('CHK-1', 'failed'), rawTest('CHK-2', 'passed'), rawTest('CHK-3', 'skipped'), rawTest('CHK-9', 'failed'), rawTest('ENV-5', 'passed')),
    context,
  );
  const diff = diffReports(old, current);
  assert.deepEqual(
    diff.regressed.map((c) => `${c.id} ${c.from}→${c.to}`),
    ['CHK-1 passed→failed', 'CHK-9 passed→warning'],
  );
  assert.deepEqual(
    diff.recovered.map((c) => c.id),
    ['CHK-2'],
  );
  assert.deepEqual(
    diff.unchecked.map((c) => `${c.id} ${c.to}`),
    ['CHK-3 skipped'],
  );
  assert.equal(diff.regressed[0].why, 'CHK-1 failed');
  const text = renderDiff(diff, 'text');
  assert.match(text, /^verdict: non-conformant → non-conformant\nRegressed: 2\n {2}CHK-1 \(MUST\) passed → failed: CHK-1 failed\n/);
  const md = renderDiff(diff, 'md');
  assert.match(
    md,
    /### Regressed \(2\)\n\n\| clause \| level \| was \| now \| why \|\n\|---\|---\|---\|---\|---\|\n\| CHK-1 \| MUST \| passed \| failed \| CHK-1 failed \|/,
  );
  assert.match(renderDiff(diffReports(old, old), 'md'), /No clause changed/);
});

test('diff command: exit 1 on a regression or a new incomplete run, 0 otherwise, 2 on a bad file', async (t) => {
  const dir = tempDir(t, 'diff-');
  const write = (name: string, report: Report) => writeReport(join(dir, name), report, []);
  write('good', buildReport(clauses(), raw(rawTest('CHK-1', 'passed')), context));
  write('bad', buildReport(clauses(), raw(rawTest('CHK-1', 'failed')), context));
  write('down', buildReport(clauses(), null, context, 'target unreachable'));
  const good = join(dir, 'good/report.json');
  const regression = await cli(['diff', good, join(dir, 'bad'), '--format', 'md']);
  assert.equal(regression.code, 1);
  assert.match(regression.stdout, /\| CHK-1 \| MUST \| passed \| failed \|/);
  assert.equal((await cli(['diff', join(dir, 'bad'), good])).code, 0);
  assert.equal((await cli(['diff', good, join(dir, 'down')])).code, 1);
  for (const args of [
    ['diff', good],
    ['diff', good, join(dir, 'nothing.json')],
    ['diff', good, good, '--format', 'html'],
  ]) {
    const { code, stderr } = await cli(args);
    assert.equal(code, 2, args.join(' '));
    assert.match(stderr, /^checkout-conformance: .*\n$/);
  }
});

test('baseline: a bad file is refused with the reason', (t) => {
  const dir = tempDir(t, 'baseline-');
  const file = join(dir, 'baseline.json');
  const waiver = { clause: 'CHK-5', reason: 'known', expires: '2027-01-31' };
  for (const [content, message] of [
    ['{ nope', /baseline .*JSON/],
    [{ waivers: [] }, /\(top level\) must be array/],
    [[{ clause: 'CHK-5', expires: '2027-01-31' }], /\/0 must have required property 'reason'/],
    [[{ ...waiver, owner: 'me' }], /\/0 must NOT have additional properties "owner"/],
    [[{ ...waiver, expires: '31/01/2027' }], /\/0\/expires must match pattern/],
    [[{ ...waiver, expires: '2027-02-30' }], /\/0\/expires is not a date: 2027-02-30/],
    [[{ ...waiver, clause: 'CHK-999' }], /\/0 names no clause of the catalogue: CHK-999/],
    [[waiver, waiver], /\/1 waives CHK-5 a second time/],
  ] as const) {
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    assert.throws(
      () => loadBaseline(file, clauses()),
      (error: Error) => error instanceof BaselineError && message.test(error.message),
      String(message),
    );
  }
  writeFileSync(file, JSON.stringify([waiver]));
  assert.deepEqual(loadBaseline(file, clauses()), [waiver]);
});

test('baseline: waived, expired and unused waivers in every report format', () => {
  const waivers: Waiver[] = [
    { clause: 'CHK-5', reason: 'fix in release 12', expires: '2026-06-01' },
    { clause: 'CHK-9', reason: 'accepted warning', expires: '2026-12-31' },
    { clause: 'CHK-6', reason: 'was broken', expires: '2026-05-31' },
    { clause: 'CHK-1', reason: 'nothing fails here', expires: '2026-12-31' },
  ];
  const results = raw(rawTest('CHK-5', 'failed'), rawTest('CHK-9', 'failed'), rawTest('CHK-6', 'failed'), rawTest('CHK-1', 'passed'));
  const report = buildReport(clauses(), results, context, null, waivers);
  assert.equal(statusOf(report, 'CHK-5'), 'waived', 'a waiver applies through its last day');
  assert.equal(statusOf(report, 'CHK-9'), 'waived');
  assert.equal(statusOf(report, 'CHK-6'), 'failed');
  assert.deepEqual(report.clauses.find((c) => c.id === 'CHK-6')!.waiver, { ...waivers[2], expired: true });
  assert.equal(report.summary.waived, 2);
  assert.equal(report.summary.failed, 1);
  assert.deepEqual(report.unusedWaivers, [waivers[3]]);
  assert.equal(report.verdict, 'non-conformant');
  assert.equal(buildReport(clauses(), raw(rawTest('CHK-5', 'failed')), context, null, waivers).verdict, 'conformant');

  const junit = renderJunit(report);
  assert.equal(junit.match(/<failure /g)?.length, 1);
  assert.match(junit, /classname="CHK-6"[^>]*><failure/);
  assert.match(junit, /classname="CHK-5"[^>]*><system-out>waived \(fix in release 12, expires 2026-06-01\): CHK-5 failed<\/system-out>/);
  const summary = renderSummary(report);
  assert.match(summary, /\| CHK-5 \| MUST \| waived \| waiver CHK-5: fix in release 12 \(expires 2026-06-01\); CHK-5 failed \|/);
  assert.match(summary, /\| CHK-6 \| MUST \| failed \| waiver CHK-6: was broken \(expired 2026-05-31\); CHK-6 failed \|/);
  assert.match(summary, /matched no failure[\s\S]*- CHK-1: nothing fails here \(expires 2026-12-31\)/);
  assert.match(summary, /\| waived \|\n[|-]+\n(\| \d+ ){6}\| 2 \|/);
  const html = renderHtml(report);
  assert.match(html, /<tr id="CHK-5" data-status="waived" data-level="MUST">\n<td>CHK-5<\/td>/);
  assert.match(html, /Waiver CHK-6: was broken \(expired 2026-05-31\)/);
  assert.match(html, /<dt>Unused waivers<\/dt><dd>CHK-1: nothing fails here/);
});

test('shards: merged parts give the verdict and clause statuses of the unsharded run; waivers from --baseline', async (t) => {
  const specs = specFolder(t, {
    'a.spec.ts': `import { test, expect } from '@playwright/test';
test('passes', { tag: ['@CHK-1'] }, () => {});
test('fails', { tag: ['@CHK-5'] }, () => { expect(1).toBe(2); });
test('fails but is waived', { tag: ['@CHK-6'] }, () => { expect(1).toBe(2); });
`,
    'b.spec.ts': `import { test, expect } from '@playwright/test';
test('warns', { tag: ['@CHK-9'] }, () => { expect(1).toBe(2); });
test('skips', { tag: ['@PAGE-1'] }, () => { test.skip(true, 'no pages'); });
test('observes', { tag: ['@ENV-5'] }, () => {});
`,
  });
  const dir = tempDir(t, 'shards-');
  const baseline = join(dir, 'baseline.json');
  writeFileSync(
    baseline,
    JSON.stringify([
      { clause: 'CHK-6', reason: 'known', expires: '2999-12-31' },
      { clause: 'CHK-2', reason: 'stale', expires: '2999-12-31' },
    ]),
  );
  // 400 where it writes: a target that answers 404 to everything stops the run at its probe.
  const target = createServer((request, response) => response.writeHead(request.method === 'GET' ? 404 : 400).end());
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.after(() => target.close());
  const run = (out: string, ...extra: string[]) =>
    cli(
      [
        'run',
        '--base-url',
        `http://127.0.0.1:${(target.address() as { port: number }).port}`,
        '--seed',
        '9',
        '--allow-partial',
        '--out',
        join(dir, out),
        ...extra,
      ],
      { env: { CHECKOUT_CONFORMANCE_SPECS: specs } },
    );

  const [whole, first, second] = await Promise.all([run('whole', '--baseline', baseline), run('part-1', '--shard', '1/2'), run('part-2', '--shard', '2/2')]);
  assert.equal(whole.code, 1, whole.stdout);
  assert.match(whole.stdout, /unused waiver CHK-2: stale \(expires 2999-12-31\): it matched no failure/);
  assert.equal(first.code, 1, first.stdout);
  assert.equal(second.code, 0, second.stdout);
  const merged = await cli(['merge', join(dir, 'part-1'), join(dir, 'part-2'), '--out', join(dir, 'merged'), '--baseline', baseline]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);

  const wholeReport = readJson<Report>(join(dir, 'whole/report.json'));
  const mergedReport = readJson<Report>(join(dir, 'merged/report.json'));
  assert.equal(mergedReport.verdict, wholeReport.verdict);
  assert.deepEqual(
    mergedReport.clauses.map((c) => [c.id, c.status]),
    wholeReport.clauses.map((c) => [c.id, c.status]),
  );
  assert.deepEqual(mergedReport.summary, wholeReport.summary);
  assert.deepEqual([statusOf(mergedReport, 'CHK-6'), statusOf(mergedReport, 'CHK-5'), statusOf(mergedReport, 'CHK-9')], ['waived', 'failed', 'warning']);
  assert.deepEqual(
    mergedReport.unusedWaivers.map((w) => w.clause),
    ['CHK-2'],
  );
  assert.equal(mergedReport.seed, 9);
  assert.equal(mergedReport.shard, null);
  assert.equal(readJson<Report>(join(dir, 'part-1/report.json')).shard, '1/2');

  // A missing shard leaves the merge unfinished; the failure part 1 already found is decisive (as in an interrupted run).
  const half = await cli(['merge', join(dir, 'part-1'), '--out', join(dir, 'half')]);
  assert.equal(half.code, 1, half.stdout + half.stderr);
  const halfReport = readJson<Report>(join(dir, 'half/report.json'));
  assert.deepEqual([halfReport.verdict, halfReport.reason], ['non-conformant', 'shard 2/2 missing from the merge']);
  const passingHalf = await cli(['merge', join(dir, 'part-2'), '--out', join(dir, 'other-half')]);
  assert.equal(passingHalf.code, 2, 'a missing shard with no failure yet is incomplete');
  assert.equal((await cli(['merge', join(dir, 'whole')])).code, 2, 'an unsharded report is no part');
});

test('package: one archive with the three report files and metadata without secrets', async (t) => {
  const dir = tempDir(t, 'package-');
  const reportDir = join(dir, 'run');
  writeReport(reportDir, buildReport(clauses(), raw(rawTest('CHK-1', 'passed')), context), []);
  const profile = {
    name: 'example',
    live: true,
    headers: { Authorization: 'Basic c2VjcmV0' },
    notificationSecret: 'signing-secret',
    capabilities: { testHelpers: false, hostedPages: true, stateful: true, refusesBrokenRules: true },
    timeouts: { requestMs: 1000, eventMs: 1000 },
  };
  writeFileSync(join(reportDir, 'run-config.json'), JSON.stringify({ profile, headers: profile.headers }));
  const { code, stdout } = await cli(['package', reportDir]);
  assert.equal(code, 0);
  const archive = `${reportDir}.tar.gz`;
  assert.match(stdout, new RegExp(`package ${archive}`));
  assert.deepEqual(execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n'), [
    'report.html',
    'report.json',
    'junit.xml',
    'metadata.json',
  ]);
  assert.equal(execFileSync('tar', ['-xzOf', archive, 'report.json'], { encoding: 'utf8' }), readFileSync(join(reportDir, 'report.json'), 'utf8'));
  const metadataText = execFileSync('tar', ['-xzOf', archive, 'metadata.json'], { encoding: 'utf8' });
  for (const secret of ['c2VjcmV0', 'signing-secret']) assert.ok(!metadataText.includes(secret), secret);
  const metadata = JSON.parse(metadataText);
  assert.deepEqual(metadata.suite, { name: 'checkout-conformance', version: readJson<{ version: string }>('package.json').version });
  assert.equal(metadata.seed, 42);
  assert.equal(metadata.target.baseUrl, context.baseUrl);
  assert.deepEqual([metadata.startedAt, metadata.finishedAt], [context.startedAt, context.finishedAt]);
  assert.deepEqual(metadata.profile, {
    name: 'example',
    live: true,
    capabilities: profile.capabilities,
    timeouts: profile.timeouts,
    headerNames: ['Authorization'],
    signsNotifications: true,
  });

  const elsewhere = join(dir, 'out', 'partner.tar.gz');
  mkdirSync(join(dir, 'out'));
  assert.equal((await cli(['package', reportDir, '--out', elsewhere])).code, 0);
  assert.ok(readFileSync(elsewhere).length > 0);
  assert.equal((await cli(['package', dir])).code, 2, 'a folder without a report');
});
