/**
 * A run always ends, with its report, whatever the target sends to the run's own addresses and
 * whenever it does: past the last test, Playwright gets the longest notification wait and 10 s to
 * close its workers (src/runner/run-end.ts), then the run ends anyway and says what was still open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.ts';
import { startProxy, type Delivery } from '../../mutants/proxy.ts';
import { runEndGraceMs } from '../../src/runner/run-end.ts';
import { packageRoot, readReport, specFolder, tempDir } from '../support/cli.ts';
import { markedRun, reportFiles } from '../support/hostile-run.ts';

const sandboxProfile = join(packageRoot, 'profiles/sandbox.json');
/** Its notification wait (profiles/sandbox.json). */
const sandboxEventMs = 1_000;
/** Startup of the command line and Playwright on a loaded CI machine, as in hostile.test.ts. */
const startupMs = 45_000;

test('a worker that never stops: the run ends after its last test, with its results and what was still open', { timeout: 120_000 }, async (t) => {
  const out = tempDir(t, 'run-end-worker-');
  const specs = specFolder(t, {
    'never-stops.spec.ts': `
import { test as suite } from ${JSON.stringify(join(packageRoot, 'src/harness/fixtures.ts'))};
const test = suite.extend<{}, { neverStops: void }>({
  neverStops: [async ({ receiverOfWorker }, use) => { await use(); await new Promise(() => {}); }, { scope: 'worker', auto: true }],
});
test('takes a notification @EVT-1', { tag: ['@EVT-1', '@MUST'] }, async ({ receiver }) => { receiver.newPath('callback'); });
`,
  });
  const target = createServer(
    (request, response) => void response.writeHead(request.method === 'GET' ? 404 : 400, { 'content-type': 'application/json' }).end('{}'),
  );
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.after(() => target.close());
  const baseUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}`;

  const run = await markedRun(
    ['run', '--base-url', baseUrl, '--profile', sandboxProfile, '--out', out, '--grep', 'EVT-1', '--allow-partial', '--workers', '1'],
    110_000,
    { CHECKOUT_CONFORMANCE_SPECS: specs },
  );
  assert.ok(run.durationMs < startupMs + sandboxEventMs + runEndGraceMs, `took ${run.durationMs} ms`);
  for (const file of reportFiles) assert.ok(existsSync(join(out, file)), file);
  const report = readReport(out);
  assert.equal(report.clauses.find((clause) => clause.id === 'EVT-1')!.status, 'passed');
  assert.ok(
    report.target.findings.some((finding) =>
      /end was forced 11 s after its last test ended: still open: the receiver http:\/\/127\.0\.0\.1:\d+ \(worker \d+\)/.test(finding),
    ),
    report.target.findings.join('\n'),
  );
  assert.match(run.stdout, /end was forced/);
  assert.deepEqual(run.leftBehind, []);
});

test("a target that keeps posting to the run's receivers and holds a connection to them open: the run ends, conformant", { timeout: 180_000 }, async (t) => {
  const sandbox = await startSandbox({ port: 0, db: ':memory:' });
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  // Each notification again every 100 ms, for ever, and a request to the same address that never ends.
  const proxy = await startProxy({
    upstream: sandbox.url,
    transform: {
      notification(delivery: Delivery, context) {
        timers.add(setInterval(() => void context.deliver(delivery).catch(() => undefined), 100));
        const { hostname, port } = new URL(delivery.to);
        const socket = connect(Number(port), hostname, () =>
          socket.write(`POST ${new URL(delivery.to).pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: 1000000\r\n\r\n{`),
        );
        socket.on('error', () => undefined);
        sockets.add(socket);
        return [delivery];
      },
    },
  });
  t.after(async () => {
    for (const timer of timers) clearInterval(timer);
    for (const socket of sockets) socket.destroy();
    await proxy.close();
    await sandbox.close();
  });
  const out = tempDir(t, 'run-end-posting-');
  const run = await markedRun(
    ['run', '--base-url', proxy.url, '--profile', sandboxProfile, '--out', out, '--grep', 'EVT-1|EVT-2|EVT-3|EVT-4', '--allow-partial', '--seed', '5'],
    170_000,
  );
  assert.ok(timers.size > 0, 'the target sent no notification');
  assert.equal(run.code, 0, run.stdout.slice(-3000));
  for (const file of reportFiles) assert.ok(existsSync(join(out, file)), file);
  assert.equal(readReport(out).verdict, 'conformant');
  assert.deepEqual(run.leftBehind, []);
});
