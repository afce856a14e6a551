import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coveringArray, type Dimensions, type Row } from '../../src/generators/covering.ts';
import { paymentCombinations, paymentDimensions, referenceCombinations, referenceDimensions } from '../../src/model/combinations.ts';

function product<D extends Dimensions>(dimensions: D): Row<D>[] {
  let rows: Record<string, string>[] = [{}];
  for (const [name, levels] of Object.entries(dimensions)) rows = rows.flatMap((row) => levels.map((level) => ({ ...row, [name]: level })));
  return rows as Row<D>[];
}

/** Every combination of three levels that some allowed row holds, and whether the array holds it too. */
function uncoveredTriples<D extends Dimensions>(dimensions: D, rows: Row<D>[], allowed: (row: Row<D>) => boolean): string[] {
  const names = Object.keys(dimensions);
  const triplesOf = (row: Row<D>) =>
    names.flatMap((a, i) => names.slice(i + 1).flatMap((b, j) => names.slice(i + j + 2).map((c) => `${a}=${row[a]} ${b}=${row[b]} ${c}=${row[c]}`)));
  const covered = new Set(rows.flatMap(triplesOf));
  return [...new Set(product(dimensions).filter(allowed).flatMap(triplesOf))].filter((triple) => !covered.has(triple));
}

test('a covering array holds every 3-way combination that an allowed row holds, and only allowed rows', () => {
  const dimensions = { a: ['1', '2', '3'], b: ['x', 'y'], c: ['p', 'q'], d: ['m', 'n', 'o'], e: ['u', 'v'] } as const;
  const allowed = (row: Row<typeof dimensions>) => !(row.a === '3' && row.b === 'y');
  const array = coveringArray(dimensions, 3, allowed);
  assert.deepEqual(uncoveredTriples(dimensions, array.rows, allowed), []);
  assert.ok(array.rows.every(allowed));
  assert.ok(array.rows.length < product(dimensions).filter(allowed).length, `${array.rows.length} rows: no fewer than the product`);
  assert.deepEqual(coveringArray(dimensions, 3, allowed).rows, array.rows, 'the same array on every run');
});

test("the model's arrays cover every 3-way combination of a payment's and a reference's dimensions", () => {
  assert.deepEqual(
    uncoveredTriples(referenceDimensions, referenceCombinations.rows, () => true),
    [],
  );
  const storable = (row: Row<typeof paymentDimensions>) =>
    paymentCombinations.rows.length > 0 &&
    ((row.createRegistration !== 'true' && row.allowRegistration !== 'true') ||
      (['CC', 'MW'].includes(row.method) && ['none', 'basic', 'default'].includes(row.layout)));
  assert.deepEqual(uncoveredTriples(paymentDimensions, paymentCombinations.rows, storable), []);
  assert.ok(paymentCombinations.rows.every(storable), 'no row breaks rule 3 of 2.2');
});
