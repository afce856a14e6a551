import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAjv, schemasDigest, validatedSchemaRefs } from '../../src/core/schemas.ts';
import { compiledFrom, validators } from '../../schemas/generated/validators.ts';
import { fileValidators } from '../../schemas/generated/file-validators.ts';
import { digestOf, loadAjv, type Validator } from '../../src/core/ajv.ts';
import { fileSchemaOptions } from '../../src/core/json-file.ts';
import { profileSchema } from '../../src/core/profile.ts';
import { baselineSchema } from '../../src/report/baseline.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { readRealdata } from '../../scripts/render-generated.ts';
import { anyValidCheckout, brokenCheckouts, brokenReferences, validReference } from '../../src/generators/index.ts';

/** What a field may be changed to: every JSON type, its corners, a timestamp, 9 digits; undefined removes it. */
const corners = [undefined, null, 0, -1, 1.5, 2 ** 53, '', 'x', '123456789', '2024-02-30T25:00:00Z', '2030-01-01T00:00:00+01:00', true, [], [1], {}];

/** The value with one field (at any depth) changed to each corner in turn. */
function withOneFieldChanged(value: unknown): unknown[] {
  const paths: string[][] = [];
  const collect = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, inner] of Object.entries(node)) {
      paths.push([...path, key]);
      collect(inner, [...path, key]);
    }
  };
  collect(value, []);
  return paths.flatMap((path) =>
    corners.map((corner) => {
      const changed = structuredClone(value) as Record<string, unknown>;
      const parent = path.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, changed);
      if (corner === undefined) delete parent[path.at(-1)!];
      else parent[path.at(-1)!] = corner;
      return changed;
    }),
  );
}

test('the validators npm run generate compiled were compiled from the schemas as they are', () => {
  assert.equal(compiledFrom, schemasDigest(), 'run npm run generate');
  assert.deepEqual(Object.keys(validators), validatedSchemaRefs());
});

/** A validator's verdict and errors, as text. */
const judged = (validator: Validator, value: unknown) => JSON.stringify([validator(value), validator.errors ?? null]);

test('the compiled validators judge as ajv compiling the schemas now: the same verdict and the same errors, on valid, broken and changed values', () => {
  const realdata = readRealdata();
  const checkouts = fc.sample(anyValidCheckout, { seed: 1, numRuns: 40 });
  const references = fc.sample(validReference(), { seed: 2, numRuns: 40 });
  const broken = [...brokenCheckouts, ...brokenReferences].flatMap(({ arbitrary }) => fc.sample(arbitrary, { seed: 3, numRuns: 3 }));
  // One published example of each kind (checkout-request, payment-response…) and two requests of each operation, changed field by field.
  const oneOfEachKind = realdata.filter(({ file }, at) => realdata.findIndex((other) => other.file.split('--')[0] === file.split('--')[0]) === at);
  const changed = [...oneOfEachKind.map(({ payload }) => payload), ...checkouts.slice(0, 2), ...references.slice(0, 2)].flatMap(withOneFieldChanged);
  const corpus = [
    ...realdata.map(({ payload }) => payload),
    ...checkouts,
    ...references,
    ...broken,
    ...changed,
    ...fc.sample(fc.jsonValue(), { seed: 4, numRuns: 200 }),
  ];
  const now = createAjv();
  for (const ref of validatedSchemaRefs()) {
    const compiled = now.getSchema(ref)!;
    const ahead = validators[ref as keyof typeof validators] as Validator;
    for (const value of corpus) assert.equal(judged(ahead, value), judged(compiled, value), `${ref}: ${JSON.stringify(value)}`);
  }
});

test("the compiled validators of the profile's and the baseline's files judge as ajv compiling their schemas now", () => {
  const schemas = [profileSchema, baselineSchema];
  assert.deepEqual(Object.keys(fileValidators), schemas.map(digestOf), 'run npm run generate');
  const profiles = readdirSync(new URL('../../profiles/', import.meta.url))
    .filter((file) => file.endsWith('.json') && !file.includes('schema'))
    .map((file) => JSON.parse(readFileSync(new URL(`../../profiles/${file}`, import.meta.url), 'utf8')) as unknown);
  const baseline = [{ clause: 'CHK-5', reason: 'known', expires: '2030-01-01' }];
  const corpus = [...profiles, baseline, ...[...profiles, baseline].flatMap(withOneFieldChanged), ...fc.sample(fc.jsonValue(), { seed: 5, numRuns: 200 })];
  for (const schema of schemas) {
    const compiled = new (loadAjv().Ajv2020)(fileSchemaOptions).compile(schema);
    const ahead = fileValidators[digestOf(schema) as keyof typeof fileValidators] as Validator;
    for (const value of corpus) assert.equal(judged(ahead, value), judged(compiled, value), JSON.stringify(value));
  }
});
