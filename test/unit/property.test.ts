/** The specs' property runner (src/harness/property.ts): what it blames where fast-check cannot tell. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { startSandbox } from '../../src/sandbox/index.ts';
import { builtInProfile, loadProfile } from '../../src/core/profile.ts';
import type { RunConfig } from '../../src/core/run-config.ts';
import { createApi } from '../../src/harness/api.ts';
import { createPacer } from '../../src/harness/pace.ts';
import { propertyRunner } from '../../src/harness/property.ts';

test("a failing case that fc.check's time limit cuts short on its second try is blamed on its own problems, not as an unknown error", async () => {
  const sandbox = await startSandbox({ port: 0, db: ':memory:' });
  try {
    const run = { baseUrl: sandbox.url, headers: {}, profile: loadProfile(builtInProfile('sandbox.json')) } as unknown as RunConfig;
    const api = createApi(run, createPacer({ maxConcurrent: 8, perSecond: null }), { beforeWrite() {}, beforeFailing() {} });
    const property = propertyRunner({ seed: 1, runs: 1, concurrency: 1 }, api, async () => {});
    let calls = 0;
    const slowAfterTheFirstPass = async (id: number) => {
      calls++;
      await api.call('getPayment', { param: `case-${id}` });
      if (calls > 1) await sleep(400);
      return [{ clause: 'REF-1' as const, message: `case ${id} departs` }];
    };
    await assert.rejects(property(fc.nat(9), slowAfterTheFirstPass, { timeLimitMs: 100 }), /departures from the reference/);
    assert.deepEqual(
      api.problems.map(({ clause }) => clause),
      ['REF-1'],
    );
    const evidence = api.evidence();
    assert.ok(
      evidence.some(({ note }) => /no case ended within its time limit \(100 ms\): the evidence is the first failing case/.test(note)),
      JSON.stringify(evidence),
    );
    assert.equal(evidence.filter(({ request }) => request).length, 1, 'the first failing case made one exchange');
  } finally {
    await sandbox.close();
  }
});
