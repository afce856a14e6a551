import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { call } from '../../src/sandbox/client.ts';
import { sandboxCommand } from '../../src/sandbox/command.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { isoWithOffset } from '../../src/sandbox/time.ts';
import { UsageError } from '../../src/core/command-line.ts';

const folder = mkdtempSync(join(tmpdir(), 'sandbox-persistence-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const bin = new URL('../../bin/checkout-conformance.js', import.meta.url).pathname;

/** `checkout-conformance sandbox` in a child process; resolves with its URL once it listens. */
async function spawnSandbox(db: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:[0-9]+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${output}`)));
  });
  return { child, url, output: () => output };
}

describe('persistence', () => {
  test('a restart on the same file keeps checkouts, payments, stored methods and notification attempts', async () => {
    const db = join(folder, 'restart.db');
    const uuid = randomUUID();
    const first = await startSandbox({ db });
    const created = (
      await call(first.url, 'POST', '/checkouts', {
        payment: { amount: 300, customer: { uuid }, paymentMethod: { code: 'CC', details: { createRegistration: true } } },
      })
    ).body.data;
    await call(first.url, 'POST', `/test-helpers/checkouts/${created.id}/pay`, {
      method: 'CC',
      card: { number: '4111111111111111', holder: 'Ana', expireMonth: '07', expireYear: '2031' },
    });
    const validDate = { start: isoWithOffset(Date.now() - 60_000), end: isoWithOffset(Date.now() + 60_000) };
    const reference = (await call(first.url, 'POST', '/payments/references', { type: 'payment', amount: 5, availableMethods: [{ code: 'MB' }], validDate }))
      .body.data;
    await call(first.url, 'PUT', '/test-helpers/webhook', { url: 'http://127.0.0.1:1/hook' });
    const before = {
      methods: (await call(first.url, 'GET', `/customers/${uuid}/paymentMethods`)).body.data,
      payment: (await call(first.url, 'GET', `/payments/${created.paymentId}`)).body.data,
      reference: (await call(first.url, 'GET', `/payments/${reference.id}`)).body.data,
      attempts: (await call(first.url, 'GET', '/test-helpers/notifications')).body.notifications,
    };
    assert.equal(before.methods.length, 1);
    assert.equal(before.attempts.length, 1);
    await first.close();

    const second = await startSandbox({ db });
    try {
      assert.deepEqual((await call(second.url, 'GET', `/customers/${uuid}/paymentMethods`)).body.data, before.methods);
      assert.deepEqual((await call(second.url, 'GET', `/payments/${created.paymentId}`)).body.data, before.payment);
      assert.deepEqual((await call(second.url, 'GET', `/payments/${reference.id}`)).body.data, before.reference);
      assert.deepEqual((await call(second.url, 'GET', '/test-helpers/notifications')).body.notifications, before.attempts);
      assert.equal((await call(second.url, 'GET', '/test-helpers/webhook')).body.url, 'http://127.0.0.1:1/hook');
      assert.equal(
        (
          await call(second.url, 'POST', `/test-helpers/checkouts/${created.id}/pay`, {
            method: 'CC',
            card: { number: '4111111111111111', holder: 'Ana', expireMonth: '07', expireYear: '2031' },
          })
        ).status,
        409,
      );
    } finally {
      await second.close();
    }
  });

  test('a sandbox killed in the middle of a run of creations loses none it acknowledged', async () => {
    const db = join(folder, 'killed.db');
    const { child, url } = await spawnSandbox(db);
    const acknowledged: { id: string; paymentId: string }[] = [];
    let killed = false;
    const exited = once(child, 'exit');
    async function createUntilKilled() {
      while (!killed) {
        try {
          const answer = await call(url, 'POST', '/checkouts', { payment: { amount: 100, paymentMethod: { code: 'MB' } }, page: { layout: 'web' } });
          if (answer.status === 201) acknowledged.push(answer.body.data);
          if (acknowledged.length >= 300 && !killed) {
            killed = true;
            child.kill('SIGKILL');
          }
        } catch {
          return; // the connection died with the process
        }
      }
    }
    await Promise.all(Array.from({ length: 16 }, createUntilKilled));
    await exited;
    const restarted = await startSandbox({ db });
    try {
      for (const { id, paymentId } of acknowledged) {
        assert.equal((await fetch(`${restarted.url}/pay/${id}`)).status, 200, id);
        assert.equal((await call(restarted.url, 'GET', `/payments/${paymentId}`)).status, 200, paymentId);
      }
      assert.equal((await call(restarted.url, 'POST', '/checkouts', {})).status, 201, 'and it goes on creating');
    } finally {
      await restarted.close();
    }
  });
});

describe('the sandbox command', () => {
  test('refuses bad options with a usage error', async () => {
    for (const args of [['--port', 'x'], ['--port', '70000'], ['--nope'], ['--db', ''], ['--entity', '12'], ['extra']]) {
      await assert.rejects(sandboxCommand(args), UsageError, args.join(' '));
    }
  });

  test('prints its URL, serves, and stops cleanly on SIGTERM', async () => {
    const { child, url, output } = await spawnSandbox(':memory:');
    assert.equal((await call(url, 'POST', '/checkouts', {})).status, 201);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0);
    assert.match(output(), /stopped/);
  });
});
