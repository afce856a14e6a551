/** The specs' HTTP client (src/harness/api.ts): what each piece of a test's work exchanged, kept apart. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox } from '../../src/sandbox/index.ts';
import { builtInProfile, loadProfile } from '../../src/core/profile.ts';
import type { RunConfig } from '../../src/core/run-config.ts';
import { createApi } from '../../src/harness/api.ts';
import { createPacer } from '../../src/harness/pace.ts';

test('madeBy answers the exchanges of its own work alone, whatever runs beside it; one inside another is in both', async () => {
  const sandbox = await startSandbox({ port: 0, db: ':memory:' });
  try {
    const run = { baseUrl: sandbox.url, headers: {}, profile: loadProfile(builtInProfile('sandbox.json')) } as unknown as RunConfig;
    const api = createApi(run, createPacer({ maxConcurrent: 8, perSecond: null }), { beforeWrite() {}, beforeFailing() {} });
    const read = async (id: string) => {
      await api.call('getPayment', { param: id });
      await sleep(5);
      await api.call('getPayment', { param: id });
      return id;
    };
    const made = await Promise.all(['a', 'b', 'c'].map((id) => api.madeBy(() => read(id))));
    for (const { result, exchanges } of made) {
      assert.equal(exchanges.length, 2);
      assert.ok(
        exchanges.every((exchange) => exchange.request.url.endsWith(`/payments/${result}`)),
        `${result}: ${exchanges.map((exchange) => exchange.request.url).join(', ')}`,
      );
    }
    assert.equal(api.exchanges.length, 6, 'the test keeps every exchange');
    const outer = await api.madeBy(async () => {
      await api.call('getPayment', { param: 'outer' });
      return api.madeBy(() => read('inner'));
    });
    assert.equal(outer.result.exchanges.length, 2);
    assert.equal(outer.exchanges.length, 3, 'the outer work holds the inner one');
  } finally {
    await sandbox.close();
  }
});
