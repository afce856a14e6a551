import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeForcedEnd, watchRunEnd } from '../../src/runner/run-end.ts';
import { writeDownReceiverClosed, writeDownReceiverOpened } from '../../src/harness/ledger.ts';

test('the watchdog arms at the last test, and forces the end only where Playwright did not end by itself', async () => {
  let forced = 0;
  const endsByItself = watchRunEnd(2, 30, () => forced++);
  endsByItself.testEnded();
  endsByItself.testEnded();
  endsByItself.runEnded();
  const hangs = watchRunEnd(2, 30, () => forced++);
  hangs.testEnded();
  await sleep(60);
  assert.equal(forced, 0, 'armed before the last test ended');
  hangs.testEnded();
  await sleep(60);
  assert.equal(forced, 1);
});

test('a forced end names the receivers its ledgers say still listened, and the workers', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'run-end-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeDownReceiverOpened(dir, 'http://127.0.0.1:4001');
  writeDownReceiverOpened(dir, 'http://127.0.0.1:4002');
  writeDownReceiverClosed(dir, 'http://127.0.0.1:4002');
  const said = describeForcedEnd(11_000, [dir]);
  assert.match(said, /forced 11 s after its last test ended: still open: the receiver http:\/\/127\.0\.0\.1:4001 \(worker \d+\), Playwright's workers/);
  assert.doesNotMatch(said, /4002/);
});
