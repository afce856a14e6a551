/** The pace of the specs' requests (src/harness/pace.ts) and the sandbox's latency switch. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox } from '../../src/sandbox/index.ts';
import { createPacer, inParallel, oneAtATime } from '../../src/harness/pace.ts';

/** Sends `count` requests through the pacer at once, each answering `status` after `ms`; the most in flight at once. */
async function peakInFlight(pacer: ReturnType<typeof createPacer>, count: number, status = 200, ms = 20): Promise<number> {
  let inFlight = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: count }, () =>
      pacer.send(
        async () => {
          peak = Math.max(peak, ++inFlight);
          await sleep(ms);
          inFlight -= 1;
          return { status, durationMs: ms };
        },
        (answer) => answer,
      ),
    ),
  );
  return peak;
}

test('at most maxConcurrent requests are in flight at once', async () => {
  assert.equal(await peakInFlight(createPacer({ maxConcurrent: 4, perSecond: null }), 20), 4);
});

test('429 answers halve the limit, once for the requests in flight together, down to one; ordinary answers bring it back', async () => {
  const pacer = createPacer({ maxConcurrent: 8, perSecond: null });
  await peakInFlight(pacer, 8, 429);
  assert.equal(pacer.limit, 4, 'eight refused together: halved once');
  for (let round = 0; round < 3; round++) await peakInFlight(pacer, 1, 429);
  assert.equal(pacer.limit, 1);
  assert.equal(await peakInFlight(pacer, 4, 429), 1, 'one at a time while 429s go on');
  for (let round = 0; round < 40 && pacer.limit < 8; round++) await peakInFlight(pacer, 8);
  assert.equal(pacer.limit, 8);
});

test('an answer the target made wait for halves the limit, as a 429 does', async () => {
  const pacer = createPacer({ maxConcurrent: 8, perSecond: null });
  await pacer.send(
    async () => ({ status: 200, durationMs: 5, askedToWait: true }),
    (answer) => answer,
  );
  assert.equal(pacer.limit, 4);
});

test('answers much slower than the fastest seen lower the limit', async () => {
  const pacer = createPacer({ maxConcurrent: 8, perSecond: null });
  await pacer.send(
    async () => ({ status: 200, durationMs: 5 }),
    (answer) => answer,
  );
  for (let slow = 0; slow < 3; slow++)
    await pacer.send(
      async () => ({ status: 200, durationMs: 3000 }),
      (answer) => answer,
    );
  assert.equal(pacer.limit, 5);
});

test('a request that throws is let go and lowers the limit', async () => {
  const pacer = createPacer({ maxConcurrent: 2, perSecond: null });
  await assert.rejects(
    pacer.send(
      async () => Promise.reject(new Error('reset')),
      () => ({ status: 200, durationMs: 0 }),
    ),
    /reset/,
  );
  assert.equal(pacer.limit, 1);
  assert.equal(await peakInFlight(pacer, 1), 1, 'its slot is free again');
});

test('the rate cap spaces the starts of requests', async () => {
  const pacer = createPacer({ maxConcurrent: 8, perSecond: 50 });
  const started = Date.now();
  await peakInFlight(pacer, 6, 200, 1);
  assert.ok(Date.now() - started >= 5 * 20 - 5, `6 requests at 50 per second took ${Date.now() - started} ms`);
});

test('inParallel keeps the order of the items and the bound on concurrency', async () => {
  let inFlight = 0;
  let peak = 0;
  const results = await inParallel(
    [5, 1, 4, 2, 3],
    async (item) => {
      peak = Math.max(peak, ++inFlight);
      await sleep(item * 3);
      inFlight -= 1;
      return item * 10;
    },
    2,
  );
  assert.deepEqual(results, [50, 10, 40, 20, 30]);
  assert.equal(peak, 2);
});

test('inParallel starts nothing after an error, lets what is under way finish, and throws the first error', async () => {
  const finished: number[] = [];
  await assert.rejects(
    inParallel(
      [1, 2, 3, 4, 5, 6],
      async (item) => {
        await sleep(item === 1 ? 1 : 20);
        if (item === 1) throw new Error('first');
        finished.push(item);
      },
      3,
    ),
    /first/,
  );
  assert.deepEqual(finished.sort(), [2, 3]);
});

test('oneAtATime runs its steps one at a time, in the order given, a failed one not stopping the next; the work after them overlaps', async () => {
  const alone = oneAtATime();
  const events: string[] = [];
  let inStep = 0;
  const work = async (name: string, fails = false) => {
    await alone(async () => {
      inStep++;
      assert.equal(inStep, 1, 'two steps at once');
      events.push(`start ${name}`);
      await sleep(20);
      events.push(`end ${name}`);
      inStep--;
      if (fails) throw new Error(name);
    }).catch(() => undefined);
    await sleep(30);
    events.push(`after ${name}`);
  };
  await Promise.all([work('a'), work('b', true), work('c')]);
  const steps = events.filter((event) => !event.startsWith('after'));
  assert.deepEqual(steps, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  assert.ok(events.indexOf('after a') < events.indexOf('end c'), `the work after a step overlaps the next steps: ${events.join(', ')}`);
});

test('the sandbox answers every request latencyMs late, pages and unknown paths too', async () => {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', latencyMs: 100 });
  try {
    for (const [method, path] of [
      ['POST', '/test-helpers/customers'],
      ['GET', '/no-such-path'],
    ]) {
      const started = performance.now();
      await (
        await fetch(`${sandbox.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined })
      ).text();
      assert.ok(performance.now() - started >= 95, `${method} ${path} answered after ${performance.now() - started} ms`);
    }
  } finally {
    await sandbox.close();
  }
});
