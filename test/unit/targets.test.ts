/** Many targets in one Playwright run (src/harness/targets.ts): what is declared for each. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declaredFor, type TargetEntry } from '../../src/harness/targets.ts';

const target = (tests: TargetEntry['tests']): TargetEntry => ({
  name: 'm',
  clause: 'REF-3',
  tests,
  marksTests: false,
  stopOnceFailed: 'REF-3',
  runConfigFile: 'm.json',
});

test("a target's top-level tests and describes are declared where they hold a test it runs, in that test's file; every one where it runs all its clause's", () => {
  const some = target([{ file: 'references.spec.ts', title: 'payment references › a confirmed payment is read in every framing' }]);
  assert.equal(declaredFor(some, 'references.spec.ts', 'payment references'), true, 'the describe that holds it');
  assert.equal(declaredFor(some, 'references.spec.ts', 'payment references › a confirmed'), false, 'a title is matched whole');
  assert.equal(declaredFor(some, 'references.spec.ts', 'refusing broken references'), false, 'another describe');
  assert.equal(declaredFor(some, 'notifications.spec.ts', 'payment references'), false, 'another file');
  const topLevel = target([{ file: 'notifications.spec.ts', title: 'no notification reaches the webhook' }]);
  assert.equal(declaredFor(topLevel, 'notifications.spec.ts', 'no notification reaches the webhook'), true, 'a top-level test');
  assert.equal(declaredFor(target(null), 'references.spec.ts', 'anything'), true, 'a target that runs its clause: every one');
  assert.equal(declaredFor(some, null, 'refusing broken references'), true, 'a file not told: declared');
  assert.equal(
    declaredFor(some, 'references.spec.ts', () => undefined),
    true,
    'a describe without a title: declared',
  );
});
