/** Which tests reach a candidate (mutants/reach.ts): learnt on copies, told by the test's header or the identifiers it made. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startProxy, type Transform } from '../../mutants/proxy.ts';
import { recordReach, selectedTests } from '../../mutants/reach.ts';
import type { RawTest } from '../../src/report/raw-results.ts';
import { testKeyHeader, testKeyOf } from '../../src/harness/targets.ts';

const paymentId = '6f1c2a50-6d1e-4c8e-9f57-0b5a1c1e2d3f';

/** An upstream that creates a reference with paymentId, serves its page and answers anything else with {}. */
async function startUpstream() {
  const received: { path: string; headers: Record<string, unknown> }[] = [];
  const server = createServer((request, response) => {
    received.push({ path: request.url!, headers: request.headers });
    request.resume();
    const body = request.url === '/payments/references' ? { success: true, data: { id: paymentId, referenceDetails: { reference: '012345678' } } } : {};
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => server.close() };
}

const refusesReferences: Transform = {
  request: (request) => (request.route === 'createReference' ? { status: 400, headers: {}, json: {}, text: '{}' } : undefined),
};
const renamesPages: Transform = {
  response(response, request) {
    if (request.path.startsWith('/page/')) response.headers['x-page'] = 'renamed';
  },
};
const changesNothing: Transform = { response() {} };
const delays: Transform = { delayMs: 10 };

test('a candidate reaches the tests whose exchanges it would change, and nothing is changed while it is learnt', async () => {
  const upstream = await startUpstream();
  const recorder = recordReach([
    { name: 'refuses-references', transform: refusesReferences },
    { name: 'renames-pages', transform: renamesPages },
    { name: 'changes-nothing', transform: changesNothing },
    { name: 'delays', transform: delays },
  ]);
  const proxy = await startProxy({ upstream: upstream.url, transform: recorder.transform });
  try {
    const creating = 'references.spec.ts › creates a reference';
    const created = await fetch(`${proxy.url}/payments/references`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [testKeyHeader]: encodeURIComponent(creating) },
      body: JSON.stringify({ type: 'payment', amount: 100 }),
    });
    assert.equal(created.status, 200, 'the recorder answers as the target does');
    await created.arrayBuffer();
    // A page's own request names no test: the payment id it carries was made by one.
    await (await fetch(`${proxy.url}/page/${paymentId}`)).arrayBuffer();
    await (await fetch(`${proxy.url}/page/unknown-to-every-test`)).arrayBuffer();
    await recorder.settled();

    assert.ok(
      upstream.received.every(({ headers }) => headers[testKeyHeader] === undefined),
      'the test header stays with the recorder',
    );
    assert.deepEqual([...recorder.reached.get('refuses-references')!.tests], [creating]);
    assert.equal(recorder.reached.get('refuses-references')!.unattributed, false);
    assert.deepEqual([...recorder.reached.get('renames-pages')!.tests], [creating]);
    assert.equal(recorder.reached.get('renames-pages')!.unattributed, true, 'a page no test made reaches it too');
    assert.deepEqual(recorder.reached.get('changes-nothing'), { tests: new Set(), changed: new Set(), unattributed: false });
    assert.equal(recorder.reached.get('delays')!.unattributed, true, 'a delay changes every exchange');
  } finally {
    await proxy.close();
    upstream.close();
  }
});

test("a mutant runs its clause's tests that reach it, a benign variant every test that reaches it, and both those that failed on the sandbox", () => {
  const raw = (title: string, clauseIds: string[], status: RawTest['status'] = 'passed'): RawTest => ({
    title,
    file: 'specs/references.spec.ts',
    clauseIds,
    problems: [],
    judged: true,
    status,
    reason: null,
    evidence: [],
    observations: [],
    property: null,
    durationMs: 1,
  });
  const tests = [raw('a', ['REF-2']), raw('b', ['REF-3']), raw('c', ['REF-2']), raw('d', ['CHK-1'], 'failed'), raw('e', ['REF-2'], 'failed')];
  const reach = { tests: new Set([testKeyOf(tests[0]), testKeyOf(tests[1])]), changed: new Set<string>(), unattributed: false };
  const titles = (list: RawTest[] | null) => list?.map((each) => each.title) ?? null;
  assert.deepEqual(titles(selectedTests({ name: 'm', clause: 'REF-2' }, reach, tests)), ['a', 'e']);
  assert.deepEqual(titles(selectedTests({ name: 'v', clause: null }, reach, tests)), ['a', 'b', 'd', 'e']);
  assert.equal(selectedTests({ name: 'v', clause: null }, { ...reach, unattributed: true }, tests), null, 'unattributed: chosen as without reach');
});
