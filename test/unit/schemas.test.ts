import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  createAjv,
  loadSchema,
  referenceSchemaFiles,
  schemaFiles,
  testHelperSchema,
  testHelperSchemaFile,
  validateRequest,
  validateResource,
  validateResponse,
  type JsonSchema,
  type SchemaFile,
} from '../../src/core/schemas.ts';
import { operations, type RequestBodies } from '../../src/core/operations.ts';
import { specificationFile } from '../../src/core/specification.ts';

test('every schema and $defs entry compiles under ajv strict mode', () => {
  const ajv = createAjv();
  for (const file of schemaFiles) {
    assert.ok(ajv.getSchema(file), file);
    for (const name of Object.keys((loadSchema(file).$defs ?? {}) as object)) assert.ok(ajv.getSchema(`${file}#/$defs/${name}`), `${file} ${name}`);
  }
});

/** The operations the table gives a request schema, and those RequestBodies gives a type: the same (checked by the compiler). */
type TakingBodies = Extract<(typeof operations)[number], { request: string }>['name'];
const sameOperations: [TakingBodies, keyof RequestBodies] extends [keyof RequestBodies, TakingBodies] ? true : false = true;

test("every operation's request and answer schema compiles", () => {
  assert.ok(sameOperations);
  for (const { name, request, answer } of operations) {
    if (request !== null) assert.doesNotThrow(() => validateRequest(name as keyof RequestBodies, {}), name);
    if (answer !== null) assert.doesNotThrow(() => validateResponse(name, {}), name);
  }
});

type DocumentedType = 'string' | 'integer' | 'boolean' | 'object' | 'array' | 'object or array';

/** Every field of section 2 of the reference: [schema, dotted path ([] for array elements), documented type]. */
const documentedFields: [SchemaFile | `${SchemaFile}#/$defs/${string}`, string, DocumentedType][] = [
  // 2.1 envelope
  ['envelope.schema.json', 'apiVersion', 'string'],
  ['envelope.schema.json', 'date', 'string'],
  ['envelope.schema.json', 'success', 'boolean'],
  ['envelope.schema.json', 'data', 'object or array'],
  ['envelope.schema.json#/$defs/versioned', 'apiVersion', 'string'],
  // 2.2 checkout request
  ['checkout-request.schema.json', 'payment.amount', 'integer'],
  ['checkout-request.schema.json', 'payment.code', 'string'],
  ['checkout-request.schema.json', 'payment.summary', 'string'],
  ['checkout-request.schema.json', 'payment.recurring.amountQualifier', 'string'],
  ['checkout-request.schema.json', 'payment.customer.uuid', 'string'],
  ['checkout-request.schema.json', 'payment.customer.customerId', 'string'],
  ['checkout-request.schema.json', 'payment.customer.firstName', 'string'],
  ['checkout-request.schema.json', 'payment.customer.lastName', 'string'],
  ['checkout-request.schema.json', 'payment.customer.phoneNumber', 'string'],
  ['checkout-request.schema.json', 'payment.customer.email', 'string'],
  ['checkout-request.schema.json', 'payment.billingAddress.country', 'string'],
  ['checkout-request.schema.json', 'payment.billingAddress.city', 'string'],
  ['checkout-request.schema.json', 'payment.billingAddress.street1', 'string'],
  ['checkout-request.schema.json', 'payment.billingAddress.postCode', 'string'],
  ['checkout-request.schema.json', 'payment.paymentMethod.code', 'string'],
  ['checkout-request.schema.json', 'payment.paymentMethod.details.createRegistration', 'boolean'],
  ['checkout-request.schema.json', 'payment.paymentMethod.details.allowRegistration', 'boolean'],
  ['checkout-request.schema.json', 'page.language', 'string'],
  ['checkout-request.schema.json', 'page.layout', 'string'],
  ['checkout-request.schema.json', 'redirects', 'array'],
  ['checkout-request.schema.json', 'redirects[].type', 'string'],
  ['checkout-request.schema.json', 'redirects[].url', 'string'],
  // 2.3 checkout
  ['checkout.schema.json', 'id', 'string'],
  ['checkout.schema.json', 'createdAt', 'string'],
  ['checkout.schema.json', 'checkoutUrl', 'string'],
  ['checkout.schema.json', 'paymentId', 'string'],
  ['checkout.schema.json', 'stateDetails.state', 'string'],
  ['checkout.schema.json', 'stateDetails.timestamp', 'string'],
  // 2.4 stored payment method
  ['stored-payment-method.schema.json', 'type', 'string'],
  ['stored-payment-method.schema.json#/$defs/card', 'type', 'string'],
  ['stored-payment-method.schema.json#/$defs/card', 'uuid', 'string'],
  ['stored-payment-method.schema.json#/$defs/card', 'brand', 'string'],
  ['stored-payment-method.schema.json#/$defs/card', 'last4Digitis', 'string'],
  ['stored-payment-method.schema.json#/$defs/card', 'holder', 'string'],
  ['stored-payment-method.schema.json#/$defs/card', 'expireMonth', 'string'],
  ['stored-payment-method.schema.json#/$defs/card', 'expireYear', 'string'],
  ['stored-payment-method.schema.json#/$defs/wallet', 'type', 'string'],
  ['stored-payment-method.schema.json#/$defs/wallet', 'uuid', 'string'],
  ['stored-payment-method.schema.json#/$defs/wallet', 'countryCode', 'string'],
  ['stored-payment-method.schema.json#/$defs/wallet', 'last3Digitis', 'string'],
  // 2.5 reference request
  ['reference-request.schema.json', 'type', 'string'],
  ['reference-request.schema.json', 'amount', 'integer'],
  ['reference-request.schema.json', 'callbackUrl', 'string'],
  ['reference-request.schema.json', 'availableMethods', 'array'],
  ['reference-request.schema.json', 'availableMethods[].code', 'string'],
  ['reference-request.schema.json', 'validDate.start', 'string'],
  ['reference-request.schema.json', 'validDate.end', 'string'],
  // 2.6 payment
  ['payment.schema.json', 'id', 'string'],
  ['payment.schema.json', 'type', 'string'],
  ['payment.schema.json', 'referenceDetails.entity', 'string'],
  ['payment.schema.json', 'referenceDetails.reference', 'string'],
  ['payment.schema.json', 'stateDetails.state', 'string'],
  ['payment.schema.json', 'stateDetails.createdAt', 'string'],
  ['payment.schema.json', 'amount', 'integer'],
  ['payment.schema.json', 'createdAt', 'string'],
  ['payment.schema.json', 'updatedAt', 'string'],
  ['payment.schema.json', 'validDate.start', 'string'],
  ['payment.schema.json', 'validDate.end', 'string'],
  ['payment.schema.json', 'availableMethods', 'array'],
  ['payment.schema.json', 'availableMethods[].code', 'string'],
  ['payment.schema.json', 'availableMethods[].type', 'string'],
  ['payment.schema.json', 'availableMethods[].name', 'string'],
];

function resolve(ref: string): JsonSchema {
  const [file, pointer = ''] = ref.split('#');
  let node: unknown = loadSchema(file as SchemaFile);
  for (const token of pointer.split('/').filter(Boolean)) node = (node as JsonSchema)[token];
  return node as JsonSchema;
}

function fieldNode(schemaRef: string, dottedPath: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = resolve(schemaRef);
  for (const segment of dottedPath.split('.')) {
    const [name, ...arrays] = segment.split('[]');
    node = (node?.properties as Record<string, JsonSchema> | undefined)?.[name];
    for (const _ of arrays) node = node?.items as JsonSchema | undefined;
  }
  return node;
}

/** The JSON types a schema node allows, through type, const, enum or its $ref. */
function typesOf(node: JsonSchema, base: string): string[] {
  if (node.type) return [node.type].flat() as string[];
  if ('const' in node) return [typeof node.const];
  if (typeof node.$ref === 'string') {
    const [file, pointer] = node.$ref.split('#');
    return typesOf(resolve(`${file || base}#${pointer ?? ''}`), file || base);
  }
  return [];
}

for (const [schema, path, documentedType] of documentedFields) {
  test(`2.x field ${path} of ${schema} is in the schema with its type and clause IDs`, () => {
    const node = fieldNode(schema, path);
    assert.ok(node, `${path} missing from ${schema}`);
    const clauses = node['x-clauses'];
    assert.ok(Array.isArray(clauses) && clauses.length > 0, `${path} has no x-clauses`);
    const expected = documentedType === 'object or array' ? ['object', 'array'] : [documentedType];
    assert.deepEqual(typesOf(node, schema.split('#')[0]), expected);
  });
}

test('no field of a schema is left out of the table above', () => {
  const listed = new Set(documentedFields.map(([schema, path]) => `${schema} ${path}`));
  const walk = (schemaRef: string, node: JsonSchema, prefix: string) => {
    for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
      const path = `${prefix}${name}`;
      const items = child.items as JsonSchema | undefined;
      if (!child.properties && !items?.properties) assert.ok(listed.has(`${schemaRef} ${path}`), `${schemaRef} ${path} not in the table`);
      if (child.properties) walk(schemaRef, child, `${path}.`);
      if (items?.properties) walk(schemaRef, items, `${path}[].`);
    }
  };
  for (const file of referenceSchemaFiles) {
    walk(file, loadSchema(file), '');
    for (const name of Object.keys((loadSchema(file).$defs ?? {}) as object)) walk(`${file}#/$defs/${name}`, resolve(`${file}#/$defs/${name}`), '');
  }
});

test('a timestamp without an offset is refused; Z and +01:00 pass', () => {
  const timestamp = 'envelope.schema.json#/$defs/timestampWithOffset';
  assert.notDeepEqual(validateResource(timestamp, '2030-01-01T10:00:00'), []);
  assert.notDeepEqual(validateResource(timestamp, '2030-01-01 10:00:00'), []);
  assert.deepEqual(validateResource(timestamp, '2030-01-01T10:00:00Z'), []);
  assert.deepEqual(validateResource(timestamp, '2030-01-01T10:00:00+01:00'), []);
  assert.deepEqual(validateResource(timestamp, '2030-01-01T10:00:00.123-03:00'), []);

  const reference = {
    type: 'payment',
    amount: 100,
    availableMethods: [{ code: 'MB' }],
    validDate: { start: '2030-01-01T10:00:00', end: '2030-02-01T10:00:00Z' },
  };
  const problems = validateRequest('createReference', reference);
  assert.ok(problems.length > 0 && problems.every((p) => p.path === '/validDate/start' && p.clauses.includes('REF-7')), JSON.stringify(problems));
});

test('checkout createdAt is YYYY-MM-DD HH:MM:SS, without T or offset', () => {
  const createdAt = (value: string) =>
    validateResource('checkout.schema.json', {
      id: 'a',
      createdAt: value,
      checkoutUrl: 'https://pay.example/a',
      paymentId: '1',
      stateDetails: { state: 'PaymentReady', timestamp: '2022-01-03T14:16:17+00:00' },
    });
  assert.deepEqual(createdAt('2022-01-03 14:16:17'), []);
  for (const bad of ['2022-01-03T14:16:17', '2022-01-03 14:16:17+00:00', '2022-01-03']) {
    assert.ok(createdAt(bad).every((p) => p.clauses.includes('CHK-3')) && createdAt(bad).length > 0, bad);
  }
});

test('redirect URLs may be custom-scheme deep links', () => {
  const checkout = (url: string) => ({ page: { layout: 'default' }, redirects: [{ type: 'action', url }] });
  assert.deepEqual(validateRequest('createCheckout', checkout('myshop://paid?order=12')), []);
  assert.deepEqual(validateRequest('createCheckout', checkout('https://shop.example/done?order=12')), []);
});

test('a storing checkout without page.layout is allowed (4.1 "store a payment method")', () => {
  const store = {
    payment: { amount: 100, customer: { uuid: 'e2343605-cf46-43de-b20b-9b7d1c95a9b2' }, paymentMethod: { code: 'CC', details: { createRegistration: true } } },
  };
  assert.deepEqual(validateRequest('createCheckout', store), []);
});

test("the test-helper schemas are not the reference's: they carry no x-clauses", () => {
  assert.ok(!JSON.stringify(loadSchema(testHelperSchemaFile)).includes('"x-clauses":'));
});

const contract = readFileSync(specificationFile('contracts', 'test-helpers.md'), 'utf8');
const filledIn = (example: string) =>
  example.replace('<UUID>', 'e2343605-cf46-43de-b20b-9b7d1c95a9b2').replace('<ISO 8601 with offset>', '2030-01-01T10:00:00+01:00').replace('PORT', '8081');

test('every body and answer that shared/contracts/test-helpers.md shows is valid per its schema', () => {
  const [payRequest, payAnswer, ...others] = [...contract.matchAll(/```json\n([\s\S]*?)```/g)].map((block) => JSON.parse(block[1]));
  assert.deepEqual(others, []);
  const shown: [schema: string, example: unknown][] = [
    ['payRequest', payRequest],
    ['payAnswer', payAnswer],
    ['payAnswer', { ...payAnswer, redirectUrl: null }],
  ];
  for (const [schema, spelled] of [
    ['registerCustomerRequest', '{}'],
    ['registerCustomerRequest', '{"customerId": "..."}'],
    ['registerCustomerAnswer', '{"uuid": "<UUID>"}'],
    ['confirmRequest', '{}'],
    ['confirmRequest', '{"paidAt": "<ISO 8601 with offset>"}'],
    ['webhookRequest', '{"url": "http://127.0.0.1:PORT/hook"}'],
  ]) {
    assert.ok(contract.includes(spelled), `the contract shows ${spelled}`);
    shown.push([schema, JSON.parse(filledIn(spelled))]);
  }
  for (const [schema, example] of shown) assert.deepEqual(validateResource(testHelperSchema(schema), example), [], `${schema} ${JSON.stringify(example)}`);
});

test('a pay request: two-digit expireMonth, the card with CC and the wallet with MW, the other one ignored', () => {
  const problems = (body: unknown) => validateResource(testHelperSchema('payRequest'), body);
  const card = { number: '4111111111111111', holder: 'Ana Silva', expireMonth: '07', expireYear: '2031' };
  const wallet = { countryCode: '351', number: '912345678' };
  for (const expireMonth of ['7', '1', '13', '00', '007']) {
    assert.deepEqual(
      problems({ method: 'CC', card: { ...card, expireMonth } }).map((problem) => problem.path),
      ['/card/expireMonth'],
      expireMonth,
    );
  }
  assert.deepEqual(
    problems({ method: 'CC', card: { ...card, expireYear: '31' } }).map((problem) => problem.path),
    ['/card/expireYear'],
  );
  assert.deepEqual(problems({ method: 'CC', card, wallet: { number: '' }, storeConsent: true }), []);
  assert.deepEqual(problems({ outcome: 'failure', method: 'MW', wallet, card: {} }), []);
  assert.deepEqual(problems({ method: 'MB' }), []);
  assert.deepEqual(
    problems({ method: 'CC', wallet }).map((problem) => problem.expected),
    ['property "card" to be present'],
  );
  assert.deepEqual(
    problems({ method: 'MW', card }).map((problem) => problem.expected),
    ['property "wallet" to be present'],
  );
  assert.deepEqual(
    problems({ method: 'XX' }).map((problem) => problem.path),
    ['/method'],
    'the method, not the unchosen branch',
  );
  assert.deepEqual(
    problems({ outcome: 'maybe', method: 'MB' }).map((problem) => problem.path),
    ['/outcome'],
  );
});

test('a webhook is an absolute http(s) URL; paidAt has an offset', () => {
  const webhook = (url: string) => validateResource(testHelperSchema('webhookRequest'), { url });
  for (const url of ['http://127.0.0.1:8081/hook', 'https://merchant.example/hooks?x=1']) assert.deepEqual(webhook(url), [], url);
  for (const url of ['ftp://merchant.example/hook', '/hook', 'http://', 'merchant.example/hook']) assert.notDeepEqual(webhook(url), [], url);
  assert.notDeepEqual(validateResource(testHelperSchema('confirmRequest'), { paidAt: '2030-01-01T10:00:00' }), []);
});
