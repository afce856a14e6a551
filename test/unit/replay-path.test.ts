/** --replay-path (src/harness/property.ts): a failing sequence of commands comes back at once from the path its report gives, as shrunk. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { replayPathOf, replayPathParts } from '../../src/harness/property.ts';

class Push implements fc.Command<{ size: number }, number[]> {
  constructor(readonly value: number) {}
  check = () => true;
  run(model: { size: number }, real: number[]) {
    real.push(this.value);
    model.size++;
    if (real.length > 3 && this.value > 50) throw new Error('a fourth push of more than 50');
  }
  toString = () => `push(${this.value})`;
}

const pushes = (replayPath?: string) =>
  fc.commands([fc.nat({ max: 100 }).map((value) => new Push(value))], { maxCommands: 20, ...(replayPath && { replayPath }) });
const property = (replayPath?: string) => fc.property(pushes(replayPath), (commands) => fc.modelRun(() => ({ model: { size: 0 }, real: [] }), commands));

test("a failing sequence's replay path holds fast-check's path and the commands' replayPath, and replays the shrunk sequence at once", () => {
  const failed = fc.check(property(), { seed: 7, numRuns: 200 });
  assert.ok(failed.failed && failed.counterexamplePath);
  const replayPath = replayPathOf(failed.counterexamplePath, failed.counterexample![0]);
  const { path, commands } = replayPathParts(replayPath);
  assert.equal(path, failed.counterexamplePath);
  assert.ok(commands, replayPath);

  const replayed = fc.check(property(commands), { seed: 7, path, endOnFailure: true });
  assert.equal(replayed.numRuns, 1);
  assert.equal(String(replayed.counterexample![0]).split(' /*')[0], String(failed.counterexample![0]).split(' /*')[0]);
});

test('a case that is no sequence of commands replays by its path alone', () => {
  assert.equal(replayPathOf('4:1', { amount: 5 }), '4:1');
  assert.deepEqual(replayPathParts('4:1'), { path: '4:1', commands: undefined });
});
