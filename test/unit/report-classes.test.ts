import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classNamesByClause } from '../../src/generators/index.ts';
import { clauses } from '../../src/core/clauses.ts';
import { classesOf } from '../../src/report/classes.ts';
import { buildReport } from '../../src/report/report.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJunit } from '../../src/report/junit.ts';
import { renderSummary } from '../../src/report/summary.ts';
import type { RawTest } from '../../src/report/raw-results.ts';
import { exampleContext } from '../support/run-context.ts';
import { declaredClasses } from '../../src/runner/reporter.ts';
import { classAnnotation } from '../../src/core/evidence.ts';

const rawTest = (overrides: Partial<RawTest>): RawTest => ({
  title: 't',
  file: 'specs/x.spec.ts',
  clauseIds: [],
  problems: [],
  judged: true,
  status: 'passed',
  reason: null,
  evidence: [],
  observations: [],
  property: null,
  durationMs: 1,
  ...overrides,
});

test('a clause lists the classes exercised, those skipped with why, and those no test reached', () => {
  const [first, second, ...rest] = classNamesByClause['CHK-9'];
  const tests = [
    rawTest({
      clauseIds: ['CHK-9'],
      classes: [
        { clause: 'CHK-9', name: first, skipped: null },
        { clause: 'CHK-9', name: second, skipped: 'the target refused it (422): recorded under SEC-2' },
      ],
    }),
    rawTest({ clauseIds: ['CHK-9'], status: 'skipped', reason: 'target does not refuse broken rules' }),
  ];
  const classes = classesOf('CHK-9', tests);
  assert.deepEqual(classes.exercised, [first]);
  assert.deepEqual(classes.skipped[0], { name: second, why: 'the target refused it (422): recorded under SEC-2' });
  assert.deepEqual(
    classes.skipped.slice(1).map(({ name }) => name),
    rest,
  );
  assert.ok(classes.skipped.slice(1).every(({ why }) => why === 'not run: target does not refuse broken rules'));
});

test('a class exercised in one test and skipped in another counts as exercised; a clause no test bears on lists none', () => {
  const name = classNamesByClause['REF-1'][0];
  const tests = [
    rawTest({ clauseIds: ['REF-1'], classes: [{ clause: 'REF-1', name, skipped: 'no helper' }] }),
    rawTest({ clauseIds: ['REF-1'], classes: [{ clause: 'REF-1', name, skipped: null }] }),
  ];
  assert.ok(classesOf('REF-1', tests).exercised.includes(name));
  assert.ok(!classesOf('REF-1', tests).skipped.some((skipped) => skipped.name === name));
  assert.deepEqual(classesOf('CHK-9', tests), { exercised: [], skipped: [] });
});

test('all four report files show, per clause, the classes exercised and why any was not', () => {
  const [exercised, refused] = classNamesByClause['CHK-8'];
  const why = 'the target refused it (422): recorded under SEC-2';
  const tests = [
    rawTest({
      clauseIds: ['CHK-8'],
      classes: [
        { clause: 'CHK-8', name: exercised, skipped: null },
        { clause: 'CHK-8', name: refused, skipped: why },
      ],
    }),
  ];
  const report = buildReport(clauses(), { status: 'passed', errors: [], tests }, exampleContext());
  const chk8 = report.clauses.find((clause) => clause.id === 'CHK-8')!;
  assert.deepEqual(chk8.classes.exercised, [exercised]);
  assert.deepEqual(chk8.classes.skipped[0], { name: refused, why });
  const total = classNamesByClause['CHK-8'].length;
  assert.ok(renderSummary(report).includes(`| CHK-8 | 1/${total} | ${refused}: ${why}`));
  assert.ok(renderHtml(report).includes(`1 of ${total} input classes exercised`) && renderHtml(report).includes(`${refused}: ${why}`));
  assert.ok(renderJunit(report).includes(`<property name="classes CHK-8" value="1 of ${total} input classes exercised; ${refused}: ${why}`));
  assert.deepEqual(JSON.parse(JSON.stringify(report)).clauses.find((clause: { id: string }) => clause.id === 'CHK-8').classes, chk8.classes);
});

test('a scenario class a test names is exercised once the test reached its judgement, skipped with the reason of its skip, and not reached otherwise', () => {
  const test = { annotations: [{ type: classAnnotation, description: 'PAGE-1: layout web' }] };
  const noSkip = { annotations: [] };
  assert.deepEqual(declaredClasses(test, 'passed', true, noSkip), [{ clause: 'PAGE-1', name: 'layout web', skipped: null }]);
  assert.deepEqual(declaredClasses(test, 'failed', true, noSkip), [{ clause: 'PAGE-1', name: 'layout web', skipped: null }]);
  assert.deepEqual(declaredClasses(test, 'failed', false, noSkip), []);
  assert.deepEqual(declaredClasses(test, 'skipped', false, { annotations: [{ type: 'skip', description: 'no browser' }] }), [
    { clause: 'PAGE-1', name: 'layout web', skipped: 'no browser' },
  ]);
});
