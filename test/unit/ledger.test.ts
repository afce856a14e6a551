/** The run's ledger, written by every worker and followed by a test while others write to it. */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../support/cli.ts';
import type { LedgerEntry } from '../../src/checks/index.ts';
import { followLedger, readLedger, writeDownReceiverClosed } from '../../src/harness/ledger.ts';

const urlsOf = (entries: LedgerEntry[]) => entries.map((entry) => (entry.kind === 'receiver closed' ? entry.url : entry.kind));

test('following the ledger gives what was written since, a line being written only once it is whole', (t) => {
  const dir = tempDir(t, 'ledger-');
  writeDownReceiverClosed(dir, 'http://127.0.0.1:1/before');
  const follow = followLedger(dir);
  assert.deepEqual(follow(), []);
  writeDownReceiverClosed(dir, 'http://127.0.0.1:1/first');
  const half = JSON.stringify({ kind: 'receiver closed', url: 'http://127.0.0.1:1/second', at: 1 });
  appendFileSync(join(dir, 'ledger.jsonl'), half.slice(0, 20));
  assert.deepEqual(urlsOf(follow()), ['http://127.0.0.1:1/first']);
  appendFileSync(join(dir, 'ledger.jsonl'), `${half.slice(20)}\n`);
  assert.deepEqual(urlsOf(follow()), ['http://127.0.0.1:1/second']);
  assert.equal(readLedger(dir).length, 3);
});

test('following a ledger not yet written gives what is written once it is', (t) => {
  const dir = tempDir(t, 'ledger-');
  const follow = followLedger(dir);
  assert.deepEqual(follow(), []);
  writeDownReceiverClosed(dir, 'http://127.0.0.1:1/first');
  assert.deepEqual(urlsOf(follow()), ['http://127.0.0.1:1/first']);
});
