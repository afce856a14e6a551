/** The registry of checks (src/checks/registry.ts): every judged clause has a check, each listed once, and each check has a table of its file's tests. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checksByClause, registry } from '../../src/checks/index.ts';
import { clauses } from '../../src/core/clauses.ts';
import * as answersChecks from '../../src/checks/answers.ts';
import * as checkoutKindsChecks from '../../src/checks/checkout-kinds.ts';
import * as checkoutsChecks from '../../src/checks/checkouts.ts';
import * as envelopeChecks from '../../src/checks/envelope.ts';
import * as notificationsChecks from '../../src/checks/notifications.ts';
import * as pagesChecks from '../../src/checks/pages.ts';
import * as paymentMethodsChecks from '../../src/checks/payment-methods.ts';
import * as problemChecks from '../../src/checks/problem.ts';
import * as referencesChecks from '../../src/checks/references.ts';
import * as refusalChecks from '../../src/checks/refusal.ts';

test('the registry gives every MUST and SHOULD clause of the catalogue a check, and names no other clause', () => {
  const judged = clauses()
    .filter((clause) => clause.level !== 'INFO')
    .map((clause) => clause.id);
  for (const id of judged) assert.ok((checksByClause[id] ?? []).length > 0, `${id} has no check in the registry`);
  assert.deepEqual(
    Object.keys(checksByClause).filter((id) => !judged.includes(id)),
    [],
  );
});

test('the registry lists each check once', () => {
  const names = registry.map((entry) => entry.check.name);
  assert.deepEqual(
    names.filter((name, index) => names.indexOf(name) !== index),
    [],
  );
});

test('each check of the registry is defined in a file of src/checks whose unit test tables its checks (test/unit/checks-<file>.test.ts)', () => {
  const tabledFiles = [
    answersChecks,
    checkoutKindsChecks,
    checkoutsChecks,
    envelopeChecks,
    notificationsChecks,
    pagesChecks,
    paymentMethodsChecks,
    problemChecks,
    referencesChecks,
    refusalChecks,
  ];
  const defined = new Set<unknown>(tabledFiles.flatMap((checks) => Object.values(checks)));
  assert.deepEqual(
    registry.filter((entry) => !defined.has(entry.check)).map((entry) => entry.check.name),
    [],
  );
});
