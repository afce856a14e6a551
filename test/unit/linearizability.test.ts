import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linearize, timeline, type HistoryOperation, type SequentialModel } from '../../src/model/linearizability.ts';

/** A register: a write sets it, a read must answer its value. */
const register: SequentialModel<number, { write: number } | 'read', number | null> = {
  init: 0,
  step: (value, { input, output }) =>
    input === 'read'
      ? output === value
        ? { state: value }
        : { problems: [{ clause: 'X-1', message: `read ${output}, the register held ${value}` } as never] }
      : { state: input.write },
  key: (value) => String(value),
};
const operation = (
  input: { write: number } | 'read',
  output: number | null,
  call: number,
  returned: number,
): HistoryOperation<typeof input, number | null> => ({
  input,
  output,
  call,
  return: returned,
  label: input === 'read' ? `read → ${output}` : `write ${input.write}`,
});

test('a read overlapping a write may see either value', () => {
  for (const seen of [0, 1]) {
    const found = linearize([operation({ write: 1 }, null, 0, 10), operation('read', seen, 5, 6)], register);
    assert.equal(found.linearizable, true, `read ${seen}`);
  }
});

test('a read that returned before a write was called cannot see it: the longest order found and its problem are given', () => {
  const found = linearize([operation('read', 1, 0, 5), operation({ write: 1 }, null, 6, 10)], register);
  assert.equal(found.linearizable, false);
  if (found.linearizable) return;
  assert.deepEqual(found.longest, []);
  assert.equal(found.problems[0].clause, 'X-1');
});

test('two writes at once, then reads after both: every read must see the same last write', () => {
  const writes = [operation({ write: 1 }, null, 0, 10), operation({ write: 2 }, null, 0, 10)];
  assert.equal(linearize([...writes, operation('read', 2, 11, 12), operation('read', 2, 13, 14)], register).linearizable, true);
  assert.equal(linearize([...writes, operation('read', 2, 11, 12), operation('read', 1, 13, 14)], register).linearizable, false);
});

test('the final state is that of the order found', () => {
  const found = linearize([operation({ write: 1 }, null, 0, 1), operation({ write: 2 }, null, 2, 3)], register);
  assert.ok(found.linearizable && found.state === 2 && found.order.join() === '0,1');
});

test('a timeline draws each operation from its call to its return', () => {
  const drawn = timeline([operation({ write: 1 }, null, 100, 140), operation('read', 1, 120, 121)], 11).split('\n');
  assert.equal(drawn[0], '|---------|  0–40 ms  write 1');
  assert.match(drawn[1], /^ {5}\|/);
});
