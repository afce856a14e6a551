/** The preflight's probe of what a profile leaves open: test helpers and hosted pages. */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { withoutTestHelpers } from '../../mutants/catalogue.ts';
import { startProxy, type RunningProxy } from '../../mutants/proxy.ts';
import { probeTarget } from '../../src/runner/probe.ts';
import { unprofiled } from '../../src/runner/target.ts';
import { startSandbox } from '../../src/sandbox/index.ts';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let helperless: RunningProxy;
before(async () => {
  sandbox = await startSandbox({ port: 0, db: ':memory:' });
  helperless = await startProxy({ upstream: sandbox.url, transform: withoutTestHelpers });
});
after(async () => {
  await helperless.close();
  await sandbox.close();
});

test('a target with the four helpers and open pages is found to have them', async () => {
  const probes = await probeTarget(sandbox.url, {}, unprofiled);
  assert.equal(probes.testHelpers, true);
  assert.equal(probes.hostedPages, true);
  assert.deepEqual(probes.findings, ['hosted pages: found (GET checkoutUrl answered 200)', 'test helpers: found (4/4)']);
});

test('a target without them is found not to have them, the first missing helper named', async () => {
  const probes = await probeTarget(helperless.url, {}, unprofiled);
  assert.equal(probes.testHelpers, false);
  assert.match(probes.findings.join('\n'), /test helpers: not found: POST \/test-helpers\/customers answered 404/);
});

test('the profile wins over the probe, which then sends nothing', async () => {
  const probes = await probeTarget(
    'http://127.0.0.1:1',
    {},
    { ...unprofiled, capabilities: { ...unprofiled.capabilities, testHelpers: false, hostedPages: true } },
  );
  assert.deepEqual([probes.testHelpers, probes.hostedPages], [false, true]);
  assert.deepEqual(probes.findings, ['test helpers: no, as the profile says', 'hosted pages: yes, as the profile says']);
});

test("the probes overlap within the profile's pace: one in flight where it allows one", async () => {
  let inFlight = 0;
  let most = 0;
  const server = createServer((request, response) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    setTimeout(() => {
      inFlight -= 1;
      response.writeHead(404).end();
    }, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await probeTarget(url, {}, unprofiled);
    assert.ok(most > 1, `at most ${most} in flight`);
    most = 0;
    await probeTarget(url, {}, { ...unprofiled, requests: { concurrent: 1 } });
    assert.equal(most, 1);
  } finally {
    server.close();
  }
});

test('a live target is never probed with a write', async () => {
  const methods: string[] = [];
  const server = createServer((request, response) => {
    methods.push(request.method!);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const probes = await probeTarget(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {}, { ...unprofiled, live: true });
    assert.equal(probes.testHelpers, false);
    assert.match(probes.findings.join('\n'), /not probed on a live target/);
    assert.deepEqual(
      methods.filter((method) => method !== 'GET'),
      [],
    );
  } finally {
    server.close();
  }
});

test('pages that cannot be reached from this machine are found missing, not failed', async () => {
  const unreachablePages = await startProxy({
    upstream: sandbox.url,
    transform: {
      response: (response) =>
        void (
          (response.json as { data?: { checkoutUrl?: string } })?.data &&
          ((response.json as { data: { checkoutUrl?: string } }).data.checkoutUrl = 'http://127.0.0.1:1/pay')
        ),
    },
  });
  try {
    const probes = await probeTarget(unreachablePages.url, {}, unprofiled);
    assert.equal(probes.hostedPages, false);
    assert.match(probes.findings[0], /^hosted pages: checkoutUrl http:\/\/127\.0\.0\.1:1\/pay cannot be reached from this machine/);
  } finally {
    await unreachablePages.close();
  }
});

test('first-minute hints: a 401 or 403 names the credentials, not missing helpers; 404 to every request names --base-url and stops the run', async () => {
  for (const [status, expected] of [
    [401, /--header/],
    [403, /--header/],
    [404, /check --base-url/],
  ] as const) {
    const server = createServer((_request, response) => response.writeHead(status, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const probes = await probeTarget(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {}, unprofiled);
      const findings = probes.findings.join('\n');
      if (status === 404) {
        assert.match(probes.stop ?? '', /^every request answered 404: check --base-url/);
      } else {
        assert.equal(probes.stop, null);
        assert.match(findings, new RegExp(`credentials refused: POST /checkouts answered ${status}, POST /payments/references answered ${status}`));
        assert.match(findings, /test helpers: not usable: POST \/test-helpers\/customers answered 40\d.*; check the credentials/);
        assert.doesNotMatch(findings, /not found/);
      }
      assert.match(probes.stop ?? findings, expected);
    } finally {
      server.close();
    }
  }
});
