import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clauses } from '../../src/core/clauses.ts';
import { maskCardNumbers, secretsOf } from '../../src/core/evidence.ts';
import type { RawResults, RawTest } from '../../src/report/raw-results.ts';
import { buildReport, clauseStatus, exitCodeOf } from '../../src/report/report.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderHtml } from '../../src/report/html.ts';
import { writeReport } from '../../src/report/write.ts';
import { pathToFileURL } from 'node:url';
import { chromium as playwrightChromium } from '@playwright/test';
import { chromiumArgs, findChromium } from '../../src/core/chromium.ts';
import { exampleContext } from '../support/run-context.ts';

const launch = playwrightChromium.launch.bind(playwrightChromium);

const context = exampleContext({ profilePath: 'profiles/example.json' });

function rawTest(clauseId: string, status: RawTest['status'], extra: Partial<RawTest> = {}): RawTest {
  return {
    title: `checks ${clauseId}`,
    file: 'specs/checkouts.spec.ts',
    clauseIds: [clauseId],
    problems: [],
    judged: status !== 'skipped',
    status,
    reason: status === 'passed' ? null : `${status} for a reason`,
    evidence: [],
    observations: [],
    property: null,
    durationMs: 5,
    ...extra,
  };
}

/** A small well-formedness check: balanced tags, no bare "<" or "&" in text or attributes. */
function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const bareAmpersand = /&(?!#\d+;|amp;|lt;|gt;|quot;|apos;)/;
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const match of body.matchAll(token)) {
    const [, closing, name, attributes, selfClosing, text, bareLt] = match;
    assert.equal(bareLt, undefined, `bare < at ${match.index}`);
    assert.doesNotMatch(text ?? attributes ?? '', bareAmpersand, `bare & at ${match.index}`);
    if (text !== undefined) continue;
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
    else if (!selfClosing) stack.push(name);
  }
  assert.deepEqual(stack, [], 'unclosed elements');
}

const raw = (...tests: RawTest[]): RawResults => ({ status: 'passed', errors: [], tests });

test('clause status follows the contract rules', () => {
  assert.equal(clauseStatus('MUST', [], false), 'untested');
  assert.equal(clauseStatus('MUST', [rawTest('X-1', 'skipped'), rawTest('X-1', 'skipped')], false), 'skipped');
  assert.equal(clauseStatus('MUST', [rawTest('X-1', 'skipped'), rawTest('X-1', 'passed')], false), 'passed');
  assert.equal(clauseStatus('MUST', [rawTest('X-1', 'passed'), rawTest('X-1', 'failed')], false), 'failed');
  assert.equal(clauseStatus('SHOULD', [rawTest('X-1', 'failed')], false), 'warning');
  assert.equal(clauseStatus('SHOULD', [rawTest('X-1', 'failed')], true), 'failed');
  assert.equal(clauseStatus('SHOULD', [rawTest('X-1', 'passed')], true), 'passed');
  assert.equal(clauseStatus('INFO', [rawTest('X-1', 'passed')], false), 'observed');
  assert.equal(clauseStatus('INFO', [rawTest('X-1', 'skipped')], false), 'skipped');
});

test('every clause of the catalogue appears in order; one without a test is untested', () => {
  const report = buildReport(clauses(), raw(rawTest('CHK-5', 'passed')), context);
  assert.deepEqual(
    report.clauses.map((c) => c.id),
    clauses().map((c) => c.id),
  );
  assert.equal(report.clauses.find((c) => c.id === 'CHK-5')!.status, 'passed');
  assert.equal(report.clauses.find((c) => c.id === 'CHK-6')!.status, 'untested');
  assert.equal(report.summary.passed, 1);
  assert.equal(report.summary.untested, clauses().length - 1);
  assert.deepEqual(report.suite, {
    name: 'checkout-conformance',
    version: JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
  });
  assert.deepEqual(report.target, { baseUrl: context.baseUrl, profile: 'example', kind: 'url', profilePath: 'profiles/example.json', findings: [] });
  assert.equal(report.seed, 42);
  assert.equal(report.reason, null);
});

test('a test tagged with two clauses counts for both', () => {
  const report = buildReport(clauses(), raw(rawTest('CHK-1', 'passed', { clauseIds: ['CHK-1', 'CHK-2'] })), context);
  assert.equal(report.clauses.find((c) => c.id === 'CHK-2')!.status, 'passed');
});

test('verdict: MUST failure is non-conformant; SHOULD failure only under --strict', () => {
  const mustFailed = buildReport(clauses(), raw(rawTest('CHK-5', 'failed')), context);
  assert.equal(mustFailed.verdict, 'non-conformant');
  assert.equal(exitCodeOf(mustFailed.verdict), 1);
  assert.match(
    mustFailed.clauses.find((c) => c.id === 'CHK-5')!.tests[0].replay!,
    /^npx checkout-conformance run --base-url https:\/\/target\.example\/api --profile profiles\/example\.json --allow-partial --seed 42 --grep CHK-5$/,
  );

  const propertyFailed = rawTest('CHK-5', 'failed', { title: 'checkouts › every layout', property: { seed: 42, runs: 100, path: '7:0:1' } });
  assert.match(
    buildReport(clauses(), raw(propertyFailed), context).clauses.find((c) => c.id === 'CHK-5')!.tests[0].replay!,
    / --seed 42 --grep 'every layout' --replay-path 7:0:1$/,
  );

  const shouldFailed = raw(rawTest('CHK-9', 'failed'), rawTest('ENV-5', 'failed'), rawTest('PAGE-1', 'skipped'));
  const lenient = buildReport(clauses(), shouldFailed, context);
  assert.equal(lenient.verdict, 'conformant');
  assert.equal(exitCodeOf(lenient.verdict), 0);
  assert.deepEqual([lenient.summary.warnings, lenient.summary.observed, lenient.summary.skipped, lenient.summary.failed], [1, 1, 1, 0]);

  const strict = buildReport(clauses(), shouldFailed, { ...context, strict: true });
  assert.equal(strict.verdict, 'non-conformant');
  assert.equal(strict.clauses.find((c) => c.id === 'CHK-9')!.status, 'failed');
});

test('a run that could not be made is incomplete, with its reason', () => {
  const unreachable = buildReport(clauses(), null, context, 'target is unreachable');
  assert.equal(unreachable.verdict, 'incomplete');
  assert.equal(unreachable.reason, 'target is unreachable');
  assert.equal(exitCodeOf(unreachable.verdict), 2);
  assert.equal(buildReport(clauses(), null, context).verdict, 'incomplete');
  assert.match(buildReport(clauses(), { ...raw(rawTest('CHK-1', 'passed')), status: 'timedout' }, context).reason!, /time-out/);
  assert.match(buildReport(clauses(), { status: 'failed', errors: ['SyntaxError: x'], tests: [rawTest('CHK-1', 'passed')] }, context).reason!, /SyntaxError/);
  assert.equal(buildReport(clauses(), raw(), { ...context, grep: 'NOPE' }).reason, 'no check matches --grep NOPE');
});

test('the four files are written, masked, the HTML self-contained and escaped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-test-'));
  try {
    const headers = { Authorization: `Basic ${Buffer.from('platform:s3cret-key').toString('base64')}`, 'X-Merchant-Token': 'tok-98765-secret' };
    const failing = rawTest('CHK-11', 'failed', {
      title: 'refuses <script>alert(1)</script> & friends',
      reason: 'accepted card 4111 1111 1111 1111 with token tok-98765-secret',
      evidence: [
        {
          request: {
            method: 'POST',
            url: 'https://target.example/api/checkouts',
            headers: { ...headers, 'X-Echo': 'platform:s3cret-key' },
            body: { card: { number: '4111111111111111' } },
          },
          response: { status: 201, headers: {}, body: { note: 'card 5555555555554444 stored' } },
          note: 'the broken request was accepted',
        },
      ],
      property: { seed: 42, runs: 100, path: '17:2:0', counterexample: [{ amount: 1.5 }] },
    });
    const report = buildReport(clauses(), raw(failing, rawTest('CHK-5', 'failed')), context);
    const htmlPath = writeReport(dir, report, secretsOf(headers));
    assert.equal(htmlPath, join(dir, 'report.html'));
    for (const file of ['report.json', 'report.html', 'junit.xml', 'summary.md']) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const secret of [...secretsOf(headers), 's3cret-key', '4111111111111111', '4111 1111 1111 1111', '5555555555554444']) {
        assert.ok(!text.includes(secret), `${file} holds ${secret}`);
      }
    }
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    assert.match(JSON.stringify(json), /1111/);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    assert.ok(!html.includes('<script>alert(1)</script>'));
    assert.ok(html.includes('&#60;script&#62;alert(1)&#60;/script&#62;'));
    assert.doesNotMatch(html, /<(link|img|iframe)\b|\bsrc=|@import|url\(/i);
    assert.ok(
      html.includes('npx checkout-conformance run --base-url https://target.example/api --profile profiles/example.json --allow-partial --seed 42 --grep '),
    );
    assert.ok(html.includes('--replay-path 17:2:0'));
    assert.ok(html.includes(`${report.suite.name} ${report.suite.version}`));
    assertWellFormedXml(readFileSync(join(dir, 'junit.xml'), 'utf8'));
    assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /non-conformant[\s\S]*\| CHK-5 \| MUST \| failed \|/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('junit: a SHOULD warning is no failure, a MUST failure is, an incomplete run is an error', () => {
  const report = buildReport(clauses(), raw(rawTest('CHK-9', 'failed'), rawTest('CHK-5', 'failed'), rawTest('PAGE-1', 'skipped')), context);
  const xml = renderJunit(report);
  assertWellFormedXml(xml);
  assert.equal(xml.match(/<failure /g)?.length, 1);
  assert.match(xml, /classname="CHK-5"[^>]*><failure message="failed for a reason"/);
  assert.match(xml, /classname="CHK-9"[^>]*><system-out>warning: failed for a reason<\/system-out>/);
  assert.match(xml, /<testsuite name="CHK: creating checkouts[^"]*" tests="\d+" failures="1"/);
  const incomplete = renderJunit(buildReport(clauses(), null, context, 'target <down> & gone'));
  assertWellFormedXml(incomplete);
  assert.match(incomplete, /<error message="target &#60;down&#62; &#38; gone"\/>/);
});

const statusIn = (report: ReturnType<typeof buildReport>, id: string) => report.clauses.find((c) => c.id === id)!.status;
const problem = (clause: ClauseId) => ({ clause, message: `${clause} broken` });

test('a clause fails on the problems that name it, not on the tags of the test that found them', () => {
  const judgedTwo = rawTest('CHK-1', 'failed', { clauseIds: ['CHK-1', 'CHK-2'], problems: [problem('CHK-2')], judged: true });
  const report = buildReport(clauses(), raw(judgedTwo), context);
  assert.equal(statusIn(report, 'CHK-2'), 'failed');
  assert.equal(statusIn(report, 'CHK-1'), 'passed');
  assert.equal(report.clauses.find((c) => c.id === 'CHK-2')!.tests[0].reason, 'CHK-2: CHK-2 broken');

  const untagged = buildReport(clauses(), raw(rawTest('CHK-4', 'failed', { problems: [problem('ENV-1')], judged: true })), context);
  assert.equal(statusIn(untagged, 'ENV-1'), 'failed', 'a problem fails its clause wherever it was found');
  assert.equal(statusIn(untagged, 'CHK-4'), 'skipped', 'a problem of a clause the test is not tagged with: its own clause was not reached');
});

test("a failing test never leaves its own clause passed when what failed was a step on the way (CHK-5's checkout answered 401)", () => {
  const chk5 = rawTest('CHK-5', 'failed', { problems: [problem('CHK-1')], judged: true });
  const report = buildReport(clauses(), raw(chk5), context);
  assert.equal(statusIn(report, 'CHK-1'), 'failed');
  assert.equal(statusIn(report, 'CHK-5'), 'skipped');
  assert.match(report.clauses.find((c) => c.id === 'CHK-5')!.tests[0].reason!, /not verified: a step the test needs failed \(CHK-1\)/);
  assert.ok(!report.coverage.verified.includes('CHK-5'));
});

test('a test that stopped on a step it needs leaves its own clauses unverified; one that crashed fails them', () => {
  const stopped = buildReport(
    clauses(),
    raw(rawTest('TOK-1', 'failed', { clauseIds: ['TOK-1', 'PML-5'], problems: [problem('CHK-1')], judged: false })),
    context,
  );
  assert.equal(statusIn(stopped, 'CHK-1'), 'failed');
  assert.equal(statusIn(stopped, 'TOK-1'), 'skipped');
  assert.match(stopped.clauses.find((c) => c.id === 'TOK-1')!.tests[0].reason!, /not verified: a step the test needs failed \(CHK-1\)/);

  const crashed = buildReport(
    clauses(),
    raw(rawTest('TOK-1', 'failed', { clauseIds: ['TOK-1', 'PML-5'], reason: 'test helper POST /pay answered 500' })),
    context,
  );
  assert.equal(statusIn(crashed, 'TOK-1'), 'failed');
  assert.equal(statusIn(crashed, 'PML-5'), 'failed');
  assert.equal(crashed.clauses.find((c) => c.id === 'PML-5')!.tests[0].reason, 'test helper POST /pay answered 500');
});

test('coverage: a run that did not verify every MUST clause is incomplete, unless a partial run is allowed', () => {
  const verifiedMust = clauses().filter((c) => c.level !== 'INFO' && !['TOK-1', 'TOK-2', 'PAGE-6'].includes(c.id));
  const tests = [
    ...verifiedMust.map((c) => rawTest(c.id, 'passed')),
    rawTest('TOK-1', 'skipped', { reason: 'target has no test helpers' }),
    rawTest('TOK-2', 'skipped', { reason: 'target has no test helpers' }),
  ];
  const strictCoverage = buildReport(clauses(), raw(...tests), { ...context, allowPartial: false });
  assert.equal(strictCoverage.verdict, 'incomplete');
  assert.equal(exitCodeOf(strictCoverage.verdict), 2);
  assert.match(strictCoverage.reason!, /^2 MUST clauses were not verified: TOK-1, TOK-2: target has no test helpers \(to verify: the four test helpers/);
  assert.match(strictCoverage.reason!, /--allow-partial/);
  assert.doesNotMatch(strictCoverage.reason!, /PAGE-6/, 'the reason names the MUST clauses');
  assert.deepEqual(strictCoverage.coverage.skipped, ['TOK-1', 'TOK-2']);
  assert.deepEqual(strictCoverage.coverage.untested, ['PAGE-6']);
  assert.equal(strictCoverage.coverage.partial, true);
  assert.equal(strictCoverage.coverage.verified.length, verifiedMust.length);
  assert.match(
    strictCoverage.coverage.statement,
    new RegExp(`^partial: verified ${verifiedMust.length} of ${verifiedMust.length + 3} MUST/SHOULD clauses; not verified: .*PAGE-6: untested`),
  );

  const partial = buildReport(clauses(), raw(...tests), { ...context, allowPartial: true });
  assert.equal(partial.verdict, 'conformant');
  assert.equal(partial.reason, null);
  const dir = mkdtempSync(join(tmpdir(), 'report-coverage-'));
  try {
    writeReport(dir, partial, []);
    const statement = partial.coverage.statement;
    assert.ok(readFileSync(join(dir, 'summary.md'), 'utf8').startsWith(statement), 'summary.md opens with the coverage');
    assert.equal(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).coverage.partial, true);
    assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /<body>\s*<p class="coverage partial">partial: verified/);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    assertWellFormedXml(junit);
    assert.match(junit, /<testsuite [^>]*>\s*<properties>\s*<property name="coverage" value="partial: verified/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const failedToo = buildReport(clauses(), raw(...tests.slice(1), rawTest(verifiedMust[0].id, 'failed')), { ...context, allowPartial: false });
  assert.equal(failedToo.verdict, 'non-conformant', 'a failure is decisive even where coverage is partial');
});

test('a run stopped before its end is non-conformant where a clause had already failed, else incomplete; the reason says why either way', () => {
  const stopped = 'the run was interrupted (SIGTERM): the checks that had ended are judged, the clauses of the rest are untested';
  const failedBefore = buildReport(clauses(), raw(rawTest('CHK-1', 'failed', { problems: [problem('CHK-1')], judged: true })), context, stopped);
  assert.equal(failedBefore.verdict, 'non-conformant');
  assert.equal(failedBefore.reason, stopped);
  const passedBefore = buildReport(clauses(), raw(rawTest('CHK-1', 'passed')), context, stopped);
  assert.equal(passedBefore.verdict, 'incomplete');
  assert.equal(statusIn(passedBefore, 'CHK-1'), 'passed');
  assert.equal(statusIn(passedBefore, 'CHK-2'), 'untested');
});

/** A failing stored-method check as found on a real target: 147 exchanges, 143 of them the same poll. */
function storedMethodFailure(): RawTest {
  const customer = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const list = { method: 'GET', url: `https://target.example/api/customers/${customer}/paymentMethods`, headers: { accept: 'application/json' } };
  const answer = (n: number) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: {
      apiVersion: '1.0',
      success: true,
      data: Array.from({ length: n }, (_, i) => ({ id: `m-${i}`, code: 'CC', holder: 'ANA SILVA', expiry: '12/30', number: '************4242' })),
    },
  });
  const checkout = {
    request: { method: 'POST', url: 'https://target.example/api/checkouts', headers: {}, body: { payment: { amount: 500 } } },
    response: { status: 201, headers: {}, body: { success: true, data: { id: 'c-1' } } },
    note: '',
  };
  const evidence = [
    checkout,
    checkout,
    { ...checkout, note: 'paid' },
    ...Array.from({ length: 143 }, (_, i) => ({ request: list, response: answer(i < 142 ? 1 : 2), note: '' })),
    { request: null, response: null, note: 'PML-5: the stored method did not appear' },
  ];
  return rawTest('PML-5', 'failed', { problems: [{ clause: 'PML-5', message: 'the stored method did not appear within 10000 ms' }], evidence });
}

test('evidence of repeated polls keeps the first and the last, the rest counted', () => {
  const report = buildReport(clauses(), raw(storedMethodFailure()), context);
  const evidence = report.clauses.find((c) => c.id === 'PML-5')!.tests[0].evidence;
  assert.equal(evidence.length, 7);
  assert.match(
    evidence[4].note,
    /^141 more identical GET https:\/\/target\.example\/api\/customers\/.*\/paymentMethods between the first and the last, omitted$/,
  );
  assert.equal((evidence[5].response!.body as { data: unknown[] }).data.length, 2, 'the last poll, with what it finally showed');
  assert.equal(evidence[0].curl, `curl -X POST https://target.example/api/checkouts --data-raw '{"payment":{"amount":500}}'`);
  assert.equal(evidence[4].curl, undefined);
});

test('each exchange of the evidence carries a curl line that sends it again, credentials as ***', () => {
  const request = {
    method: 'POST',
    url: 'https://target.example/api/checkouts',
    headers: { authorization: 'Basic bWVyY2hhbnQ6czNjcmV0', 'content-type': 'application/json', 'content-length': '9' },
    body: { summary: "Livro d'Ouro" },
  };
  const evidence = [{ request, response: { status: 500, headers: {}, body: 'oops' }, note: '' }];
  const report = buildReport(clauses(), raw(rawTest('CHK-1', 'failed', { problems: [{ clause: 'CHK-1', message: 'a 500' }], evidence })), context);
  const [kept] = report.clauses.find((c) => c.id === 'CHK-1')!.tests[0].evidence;
  assert.equal(
    kept.curl,
    `curl -X POST https://target.example/api/checkouts -H 'authorization: ***' -H 'content-type: application/json' --data-raw '{"summary":"Livro d'\\''Ouro"}'`,
  );
});

test('a failing stored-method check: HTML under 10,000 px tall in Chromium, failures first in every file, summary.md fits a pull-request comment', async (t) => {
  const failures = [storedMethodFailure(), rawTest('CHK-9', 'failed', { problems: [{ clause: 'CHK-9', message: `refused nothing: ${'x'.repeat(20_000)}` }] })];
  const passedWithSkip = [rawTest('CHK-6', 'passed'), rawTest('CHK-6', 'skipped', { reason: 'target has no test helpers' })];
  const report = buildReport(clauses(), raw(...passedWithSkip, ...failures), context);
  const dir = mkdtempSync(join(tmpdir(), 'report-height-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeReport(dir, report, []);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
  const json = readFileSync(join(dir, 'report.json'), 'utf8');
  const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');

  // Failures first: before the first clause that passed, in every file.
  assert.ok(json.indexOf('"failures"') < json.indexOf('"clauses"'));
  assert.deepEqual(
    report.failures.map((f) => f.clause),
    ['PML-5', 'CHK-9'],
  );
  assert.ok(html.indexOf('data-status="failed"') < html.indexOf('data-status="passed"'));
  assert.ok(junit.indexOf('<failure') < junit.indexOf('classname="CHK-6"'));
  assert.ok(summary.indexOf('| PML-5 |') > 0 && summary.indexOf('| PML-5 |') < summary.indexOf('- CHK-6'));
  // A clause that passed with a skipped test says so; the statement's Markdown is rendered.
  assert.match(summary, /CHK-6 passed, 1 of 2 tests skipped: target has no test helpers/);
  assert.match(html, /<small class="skipped-under">1 of 2 tests skipped<\/small>/);
  assert.doesNotMatch(html, /<p>[^<]*`[^`<]+`[^<]*<\/p>/, 'backticks shown raw');
  assert.ok(summary.length < 65_536);
  assert.doesNotMatch(summary, /^\| [A-Z]+-\d+ \| \w+ \| untested \|/m, 'no row per untested clause');

  const chromium = await findChromium();
  if (chromium.executablePath === null) return t.skip(chromium.reason);
  const browser = await launch({ executablePath: chromium.executablePath, args: chromiumArgs });
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < 10_000, `report.html is ${height} px tall`);
  } finally {
    await browser.close();
  }
});

test('summary.md stays within a pull-request comment for a run where every clause failed at length', () => {
  const long = (id: ClauseId) => rawTest(id, 'failed', { problems: [{ clause: id, message: `${id} ${'y'.repeat(5000)}` }] });
  const report = buildReport(clauses(), raw(...clauses().map((clause) => long(clause.id as ClauseId))), context);
  const dir = mkdtempSync(join(tmpdir(), 'report-summary-'));
  try {
    writeReport(dir, report, []);
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    assert.ok(summary.length < 65_536, `${summary.length} characters`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the HTML report says under each clause what proves it: checks, tests and the mutants killed on it (the clause index)', () => {
  const html = renderHtml(buildReport(clauses(), raw(rawTest('CHK-5', 'passed')), context));
  const row = html.split('<tr ').find((part) => part.includes('>CHK-5</td>'))!;
  assert.match(row, /<summary>What proves it<\/summary>/);
  assert.match(row, /<code>checkCheckoutCreated<\/code>/);
  assert.match(row, /<code>default-layout-without-page_layout<\/code>/);
  assert.match(row, /specs\/resources\/checkouts\.spec\.ts: creating checkouts › for layout default/);
});

test('a card number is masked to its last four digits; a UUID whose last groups read as one is kept whole', () => {
  assert.equal(maskCardNumbers('paid with 4111 1111 1111 1111'), 'paid with ************1111');
  assert.equal(
    maskCardNumbers('/customers/f6e56005-6ef2-4cff-4111-111111111111/paymentMethods'),
    '/customers/f6e56005-6ef2-4cff-4111-111111111111/paymentMethods',
  );
});
