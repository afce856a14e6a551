/**
 * "observe": a merchant's integration script of plain fetch calls, driven through the observing
 * proxy against the reference sandbox and against mutants of it; the observer must pass what the
 * sandbox does, fail each mutant's clause with evidence, and forward everything unchanged.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { mutants } from '../../mutants/catalogue.ts';
import { startProxy, type RunningProxy } from '../../mutants/proxy.ts';
import { mask } from '../../src/core/evidence.ts';
import { startObserver } from '../../src/observe/observer.ts';
import { createTrafficState, maxRemembered } from '../../src/observe/traffic-state.ts';
import type { Report } from '../../src/report/report.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { startHostileTarget } from '../support/hostile-targets.ts';

const secret = 'Basic bWVyY2hhbnQ6czNjcmV0LXBhc3N3b3Jk';

async function call(baseUrl: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(baseUrl + path, {
    method,
    headers: { authorization: secret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, text, json: text ? JSON.parse(text) : undefined };
}

const hour = 3_600_000;

/** What a merchant's integration test does: a few checkouts, two references, a payment read, a list, a reference that is not valid, one broken request. */
async function merchantScript(baseUrl: string) {
  const customer = (await call(baseUrl, 'POST', '/test-helpers/customers', {})).json.uuid as string;
  const atmPage = { payment: { amount: 500, code: 'P1', summary: 'Book', paymentMethod: { code: 'MB' } }, page: { language: 'PT', layout: 'web' } };
  const storing = {
    payment: {
      amount: 1250,
      recurring: { amountQualifier: 'ESTM' },
      customer: { uuid: customer },
      paymentMethod: { code: 'CC', details: { createRegistration: true } },
    },
    page: { language: 'PT' },
  };
  const mobile = {
    payment: {
      amount: 990,
      code: 'P2',
      summary: 'Mug',
      customer: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
      billingAddress: { country: 'PT', city: 'Lisboa', street1: 'Rua 1', postCode: '1000-001' },
      paymentMethod: { code: 'CC' },
    },
    page: { layout: 'default' },
    redirects: [{ type: 'action', url: 'myshop://paid' }],
  };
  await call(baseUrl, 'POST', '/checkouts', atmPage);
  await call(baseUrl, 'POST', '/checkouts', mobile);
  const stored = await call(baseUrl, 'POST', '/checkouts', storing);
  await call(baseUrl, 'POST', `/test-helpers/checkouts/${stored.json.data?.id}/pay`, {
    outcome: 'success',
    method: 'CC',
    card: { number: '4111111111111111', holder: 'Ana Silva', expireMonth: '07', expireYear: '2031' },
  });
  const now = Date.now();
  const reference = (amount: number) => ({
    type: 'payment',
    amount,
    availableMethods: [{ code: 'MB' }],
    validDate: { start: new Date(now - hour).toISOString(), end: new Date(now + 24 * hour).toISOString() },
  });
  const first = await call(baseUrl, 'POST', '/payments/references', reference(1500));
  const second = await call(baseUrl, 'POST', '/payments/references', reference(2500));
  await call(baseUrl, 'GET', `/payments/${first.json.data.id}`);
  await call(baseUrl, 'GET', `/payments/${second.json.data.id}`);
  await call(baseUrl, 'GET', `/customers/${customer}/paymentMethods`);
  // Not a valid body (a callbackUrl that is not a URL): the target may refuse it (REF-1).
  await call(baseUrl, 'POST', '/payments/references', { ...reference(3500), callbackUrl: 'shop.example/notify' });
  // Rule 3: storing a method needs CC or MW; MB is a break the target should refuse.
  await call(baseUrl, 'POST', '/checkouts', {
    ...atmPage,
    payment: { ...atmPage.payment, paymentMethod: { code: 'MB', details: { createRegistration: true } } },
  });
}

const statusOf = (report: Report, id: string) => report.clauses.find((clause) => clause.id === id)!.status;
const evidenceOf = (report: Report, id: string) => report.clauses.find((clause) => clause.id === id)!.tests.flatMap((test) => test.evidence);

describe('observe', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ db: ':memory:' });
  });
  after(async () => {
    await sandbox.close();
  });

  it('passes every clause the sandbox traffic exercised, and leaves the rest untested', async () => {
    const observer = await startObserver({ upstream: sandbox.url, allowPartial: true });
    await merchantScript(observer.url);
    const report = await observer.stop();
    const failed = report.clauses.filter((clause) => clause.status === 'failed' || clause.status === 'warning');
    assert.deepEqual(
      failed.map((clause) => `${clause.id}: ${clause.tests.map((test) => test.reason).join(' ')}`),
      [],
    );
    assert.equal(report.verdict, 'conformant');
    for (const id of [
      'ENV-1',
      'ENV-2',
      'ENV-4',
      'CHK-1',
      'CHK-2',
      'CHK-3',
      'CHK-4',
      'CHK-5',
      'CHK-6',
      'CHK-7',
      'CHK-10',
      'PML-1',
      'PML-2',
      'PML-3',
      'REF-1',
      'REF-2',
      'REF-4',
      'REF-5',
      'REF-8',
    ]) {
      assert.equal(statusOf(report, id), 'passed', id);
    }
    for (const id of ['TOK-1', 'PAGE-1', 'EVT-1', 'CHK-9']) assert.equal(statusOf(report, id), 'untested', id);
    assert.equal(statusOf(report, 'ENV-5'), 'observed');
    assert.equal(report.coverage.partial, true);
    // The response headers as the client got them (writeHead's, which getHeaders() does not see).
    const observed = report.clauses.find((clause) => clause.id === 'ENV-5')!.tests.flatMap((test) => test.observations);
    assert.ok(observed.length > 0);
    for (const observation of observed) assert.doesNotMatch(observation.note, /no Content-Type/);
  });

  it('judges off the response path and forwards the exchange unchanged', async () => {
    const observer = await startObserver({ upstream: sandbox.url });
    try {
      const through = await call(observer.url, 'GET', '/customers/not-a-uuid/paymentMethods');
      const direct = await call(sandbox.url, 'GET', '/customers/not-a-uuid/paymentMethods');
      assert.equal(through.status, direct.status);
      assert.deepEqual({ ...through.json, date: null }, { ...direct.json, date: null });
      assert.equal(through.headers.get('content-type'), direct.headers.get('content-type'));
      const page = await fetch(`${observer.url}/no-such-page?x=1`);
      assert.equal(page.status, (await fetch(`${sandbox.url}/no-such-page?x=1`)).status);
    } finally {
      const report = await observer.stop();
      assert.equal(statusOf(report, 'PML-7'), 'observed');
      assert.equal(report.verdict, 'incomplete');
    }
  });

  for (const [name, clause] of [
    ['checkout-ids-repeated', 'CHK-7'],
    ['reference-ten-digits', 'REF-2'],
    ['payment-amount-in-major-units', 'REF-5'],
    ['registration-rule-3-ignored', 'CHK-10'],
    ['paths-redirect-to-v1', 'ENV-4'],
    ['store-variant-without-layout-refused', 'CHK-6'],
  ] as const) {
    it(`fails ${clause} of the mutant ${name}, with evidence and credentials masked`, async () => {
      const mutant = mutants.find((candidate) => candidate.name === name)!;
      const proxy: RunningProxy = await startProxy({ upstream: sandbox.url, transform: mutant.transform });
      const observer = await startObserver({ upstream: proxy.url, allowPartial: true });
      try {
        await merchantScript(observer.url);
      } finally {
        await proxy.close().catch(() => {});
      }
      const report = await observer.stop();
      assert.equal(statusOf(report, clause), clause === 'CHK-10' ? 'warning' : 'failed');
      assert.equal(report.verdict, clause === 'CHK-10' ? 'conformant' : 'non-conformant');
      const evidence = evidenceOf(report, clause);
      assert.ok(evidence.length > 0 && evidence.every((one) => one.request && one.response && one.note));
      assert.ok(JSON.stringify(evidence).includes(secret), 'the report before masking holds the credential');
      assert.ok(!JSON.stringify(mask(report, observer.secrets())).includes('s3cret-password'));
    });
  }

  it('survives hostile upstreams: the client gets a 502 or a closed connection, the proxy keeps serving', async () => {
    for (const behaviour of ['never-answers', 'resets-connections', 'not-json', 'huge-body'] as const) {
      const target = await startHostileTarget(behaviour);
      const observer = await startObserver({ upstream: target.url, upstreamTimeoutMs: 500, bodyCapBytes: 64 * 1024 });
      try {
        for (let attempt = 0; attempt < 2; attempt++) {
          // A connection closed while the body comes (a huge one cut off) is a closed connection too.
          const outcome = await fetch(`${observer.url}/payments/1`).then(
            (answer) =>
              answer.arrayBuffer().then(
                () => answer.status,
                () => 'closed',
              ),
            () => 'closed',
          );
          if (behaviour === 'never-answers' || behaviour === 'resets-connections') assert.equal(outcome, 502, behaviour);
          if (behaviour === 'not-json') assert.equal(outcome, 200);
        }
      } finally {
        const report = await observer.stop();
        await target.close();
        if (behaviour === 'huge-body')
          assert.ok(
            report.target.findings.some((finding) => /over 65536 bytes/.test(finding)),
            report.target.findings.join('\n'),
          );
        if (behaviour === 'never-answers') assert.ok(report.target.findings.some((finding) => /no answer for 500 ms/.test(finding)));
      }
    }
  });

  it('started as npx starts it (under a shell), a SIGTERM to that shell still ends it with its report', async () => {
    const out = mkdtempSync(join(tmpdir(), 'observe-npx-'));
    try {
      // npx runs a package's command as `sh -c '<bin>' args`: the shell gets the SIGTERM, not the command.
      const shell = spawn('sh', ['-c', `'${process.execPath}' bin/checkout-conformance.js observe --upstream ${sandbox.url} --out '${out}' --allow-partial`], {
        cwd: new URL('../../', import.meta.url),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      shell.stdout.on('data', (chunk) => (output += chunk));
      await new Promise<void>((resolve, reject) => {
        shell.stdout.on('data', () => /at http:\/\/127\.0\.0\.1:\d+/.test(output) && resolve());
        shell.on('exit', () => reject(new Error(output)));
      });
      shell.kill('SIGTERM');
      const reportFile = join(out, 'report.html');
      let errors = '';
      shell.stderr.on('data', (chunk) => (errors += chunk));
      for (let waited = 0; !existsSync(reportFile) && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(existsSync(reportFile), `no report after the shell was terminated:\n${output}\n${errors}`);
    } finally {
      // The command may still be writing its other report files, beyond the shell's reach.
      rmSync(out, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    }
  });

  it('writes the four report files from the command line after --duration', async () => {
    const out = mkdtempSync(join(tmpdir(), 'observe-cli-'));
    try {
      // Long enough for the script's requests on a loaded 2-core machine: past it the observer closes its connections.
      const child = spawn(
        process.execPath,
        ['bin/checkout-conformance.js', 'observe', '--upstream', sandbox.url, '--duration', '10', '--out', out, '--allow-partial'],
        {
          cwd: new URL('../../', import.meta.url),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const proxyUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match) resolve(match[1]);
        });
        child.on('exit', () => reject(new Error(output)));
      });
      await merchantScript(proxyUrl);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 0, output);
      for (const file of ['report.json', 'report.html', 'junit.xml', 'summary.md']) assert.ok(existsSync(join(out, file)), file);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      assert.equal(report.verdict, 'conformant');
      assert.equal(statusOf(report, 'CHK-7'), 'passed');
      assert.ok(!readFileSync(join(out, 'report.json'), 'utf8').includes('s3cret-password'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('what the observer remembers', () => {
  it(`is bounded: past ${maxRemembered} checkouts the oldest is forgotten, a recent repeat is still seen`, () => {
    const state = createTrafficState();
    const created = (id: string) => ({
      request: { method: 'POST', url: 'http://127.0.0.1/checkouts', headers: {}, body: {} },
      response: { status: 201, headers: {}, body: { success: true, data: { id, paymentId: `payment-${id}` } }, durationMs: 1 },
    });
    for (let index = 0; index <= maxRemembered; index++) state.follow('createCheckout', null, created(`checkout-${index}`));
    const repeats = (id: string) => state.follow('createCheckout', null, created(id)).flatMap((judged) => judged.problems);
    assert.deepEqual(repeats('checkout-0'), []);
    assert.ok(repeats(`checkout-${maxRemembered}`).some((problem) => problem.clause === 'CHK-7'));
  });

  it('judges a refused body that is not a JSON object with the next row of 4.1 of a kind the target created before, as the run does (CHK-12: the target still serving)', () => {
    const atmRow = { payment: { amount: 500, code: 'P1', summary: 'Book', paymentMethod: { code: 'MB' } }, page: { language: 'PT', layout: 'web' } };
    const sent = (body: unknown, status: number) => ({
      request: { method: 'POST', url: 'http://127.0.0.1/checkouts', headers: {}, body },
      response: { status, headers: {}, body: status < 300 ? { success: true, data: { id: `c-${Math.random()}` } } : { success: false } },
    });
    const clauses = (judged: { clauses: string[]; problems: { clause: string }[] }[]) =>
      judged.map((one) => [one.clauses, one.problems.map((problem) => problem.clause)]);
    const state = createTrafficState();
    assert.deepEqual(clauses(state.follow('createCheckout', null, sent('{"payment": {"amount": 500', 400))), []);
    // A row of a kind never created before may be refused for its own fault (CHK-6): it shows nothing of CHK-12.
    assert.deepEqual(
      clauses(state.follow('createCheckout', null, sent(atmRow, 503))).filter(([ids]) => ids.includes('CHK-12')),
      [],
    );
    state.follow('createCheckout', null, sent(atmRow, 200));
    state.follow('createCheckout', null, sent('{"payment": {"amount": 500', 400));
    // Both refused bodies still waiting are judged by it.
    assert.deepEqual(clauses(state.follow('createCheckout', null, sent(atmRow, 503))), [
      [['CHK-12'], ['CHK-12']],
      [['CHK-12'], ['CHK-12']],
    ]);
    state.follow('createCheckout', null, sent('checkout', 400));
    assert.deepEqual(clauses(state.follow('createCheckout', null, sent(atmRow, 200))).slice(0, 1), [[['CHK-12'], []]]);
    assert.deepEqual(
      clauses(state.follow('createCheckout', null, sent(atmRow, 200))).filter(([ids]) => ids.includes('CHK-12')),
      [],
    );
  });

  it('fails REF-6 where a payment the confirm helper confirmed is read, eventMs later, not confirmed', () => {
    const call = (method: string, path: string, body: unknown) => ({
      request: { method, url: `http://127.0.0.1${path}`, headers: {}, body: method === 'POST' ? {} : undefined },
      response: { status: 200, headers: {}, body },
    });
    const payment = (state: string) =>
      call('GET', '/payments/7', {
        success: true,
        data: { id: '7', stateDetails: { state }, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:01Z' },
      });
    const ref6 = (judged: { clauses: string[]; problems: { clause: string }[] }[]) =>
      judged.filter((one) => one.clauses.includes('REF-6')).flatMap((one) => one.problems.map((problem) => problem.clause));
    const state = createTrafficState({ eventMs: 0 });
    assert.deepEqual(ref6(state.follow('getPayment', '7', payment('pending'))), [], 'not confirmed through the observer: not judged');
    state.follow('confirmPayment', '7', call('POST', '/test-helpers/payments/7/confirm', { paymentId: '7', state: 'confirmed' }));
    assert.deepEqual(ref6(state.follow('getPayment', '7', payment('pending'))), ['REF-6']);
    assert.deepEqual(ref6(state.follow('getPayment', '7', payment('confirmed'))), []);
    const patient = createTrafficState({ eventMs: 60_000 });
    patient.follow('confirmPayment', '7', call('POST', '/test-helpers/payments/7/confirm', {}));
    assert.deepEqual(ref6(patient.follow('getPayment', '7', payment('pending'))), [], 'within eventMs: it may still be settling');
  });
});
