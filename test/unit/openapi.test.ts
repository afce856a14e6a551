import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import SwaggerParser from '@apidevtools/swagger-parser';
import { loadSchema, testHelperSchemaFile, validateRequest, validateResource, validateResponse, type JsonSchema } from '../../src/core/schemas.ts';
import { operations, type OperationName, type RequestBodies } from '../../src/core/operations.ts';
import { generatedFiles } from '../../scripts/render-generated.ts';
import { builtInProfile, loadProfile } from '../../src/core/profile.ts';
import { startPrism } from '../../src/runner/target.ts';
import { brokenCheckouts, brokenReferences, checkoutVariants, validReference, type BrokenCase } from '../../src/generators/index.ts';

const openapiPath = fileURLToPath(new URL(generatedFiles.openapi, generatedFiles.root));
const openapi = JSON.parse(readFileSync(openapiPath, 'utf8'));
const seed = 20_240_601;

type OpenapiOperation = {
  tags: string[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
};
type MediaType = { schema: { $ref: string }; examples?: Record<string, { value: unknown }> };
const operation = (path: string, method: string): OpenapiOperation => openapi.paths[path][method];

test('the OpenAPI document is valid (swagger-parser)', async () => {
  await SwaggerParser.validate(structuredClone(openapi));
});

test('the four paths of the reference and the test helpers, tagged test-helpers', () => {
  const reference = ['/checkouts', '/customers/{uuid}/paymentMethods', '/payments/references', '/payments/{id}'];
  const helpers = [
    '/test-helpers/customers',
    '/test-helpers/checkouts/{checkoutId}/pay',
    '/test-helpers/payments/{paymentId}/confirm',
    '/test-helpers/webhook',
    '/test-helpers/notifications',
  ];
  assert.deepEqual(Object.keys(openapi.paths).sort(), [...reference, ...helpers].sort());
  for (const path of helpers) for (const method of Object.keys(openapi.paths[path])) assert.deepEqual(operation(path, method).tags, ['test-helpers']);
  for (const path of reference) for (const method of Object.keys(openapi.paths[path])) assert.ok(!operation(path, method).tags.includes('test-helpers'));
});

test('every $ref points at a component that exists', () => {
  const refs = JSON.stringify(openapi).match(/"\$ref":"[^"]*"/g) ?? [];
  assert.ok(refs.length > 0);
  for (const ref of refs) {
    const name = /^"\$ref":"#\/components\/schemas\/([A-Za-z]+)"$/.exec(ref)?.[1];
    assert.ok(name && openapi.components.schemas[name], ref);
  }
});

const responseBodyOf: Record<string, OperationName> = {
  'post /checkouts': 'createCheckout',
  'get /customers/{uuid}/paymentMethods': 'listMethods',
  'get /payments/{id}': 'getPayment',
};
const requestBodyOf: Record<string, keyof RequestBodies> = { 'post /checkouts': 'createCheckout', 'post /payments/references': 'createReference' };

test('every example of a reference operation is valid per the validators', () => {
  for (const [key, body] of Object.entries(responseBodyOf)) {
    const [method, path] = key.split(' ');
    const examples = Object.values(operation(path, method).responses['200'].content!['application/json'].examples ?? {});
    assert.ok(examples.length > 0, `${key} has no example`);
    for (const { value } of examples) assert.deepEqual(validateResponse(body, value), [], key);
  }
  for (const [key, body] of Object.entries(requestBodyOf)) {
    const [method, path] = key.split(' ');
    for (const { value } of Object.values(operation(path, method).requestBody!.content['application/json'].examples ?? {})) {
      assert.deepEqual(validateRequest(body, value), [], key);
    }
  }
});

/** Where each test helper takes or answers a $defs entry of test-helpers.schema.json, by the operations table: its body, or its 2xx answer. */
const helperBodies = operations
  .filter(({ ofReference }) => !ofReference)
  .flatMap(({ path, method, request, answer }) => [
    ...(request === null ? [] : [{ path, method: method.toLowerCase(), where: 'request' as const, schema: request }]),
    ...(typeof answer === 'string' ? [{ path, method: method.toLowerCase(), where: 'answer' as const, schema: answer }] : []),
  ]);

/** A schema with its $refs and discriminator mapping left out: what is the same in the file and in the document. */
const withoutRefs = (schema: unknown) => JSON.parse(JSON.stringify(schema, (key, value) => (key === '$ref' || key === 'mapping' ? undefined : value)));

test('the test helpers take and answer the schemas of test-helpers.schema.json, and their examples are valid', () => {
  const defs = loadSchema(testHelperSchemaFile).$defs as Record<string, JsonSchema>;
  assert.ok(helperBodies.length > 0);
  for (const { path, method, where, schema } of helperBodies) {
    const { requestBody, responses } = operation(path, method);
    const success = Object.keys(responses).find((status) => status.startsWith('2'))!;
    const media = (where === 'request' ? requestBody : responses[success])!.content!['application/json'];
    const title = String(defs[schema.split('/').pop()!].title);
    assert.equal(media.schema.$ref, `#/components/schemas/${title}`, `${method} ${path} ${where}`);
    const examples = Object.values(media.examples ?? {});
    assert.ok(examples.length > 0, `${method} ${path} ${where} has no example`);
    for (const { value } of examples) assert.deepEqual(validateResource(schema, value), [], `${method} ${path} ${where}`);
  }
  for (const def of Object.values(defs)) assert.deepEqual(withoutRefs(openapi.components.schemas[String(def.title)]), withoutRefs(def), String(def.title));
});

test('Prism 5.14.2 mocks the document: valid bodies from static examples, 422 for broken requests', { timeout: 60_000 }, async (t) => {
  // The runner's own start: Prism directly (not through npx or a shell), stopped by its process group.
  const prism = await startPrism(loadProfile(builtInProfile('prism.json')), mkdtempSync(join(tmpdir(), 'prism-log-')));
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${prism.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  try {
    await t.test('a valid POST /checkouts of each variant gets a body valid per validateResponse', async () => {
      for (const variant of Object.values(checkoutVariants)) {
        const [checkout] = fc.sample(variant, { seed, numRuns: 1 });
        const { status, body } = await call('POST', '/checkouts', checkout);
        assert.equal(status, 200, JSON.stringify(checkout));
        assert.deepEqual(validateResponse('createCheckout', body), []);
      }
    });
    await t.test('the stored payment methods and the payment query answer valid bodies', async () => {
      const methods = await call('GET', '/customers/e2343605-cf46-43de-b20b-9b7d1c95a9b2/paymentMethods');
      assert.equal(methods.status, 200);
      assert.deepEqual(validateResponse('listMethods', methods.body), []);
      const payment = await call('GET', '/payments/50438');
      assert.equal(payment.status, 200);
      assert.deepEqual(validateResponse('getPayment', payment.body), []);
    });
    await t.test('a valid reference request gets the documented envelope with a payment id', async () => {
      const [reference] = fc.sample(validReference(), { seed, numRuns: 1 });
      const { status, body } = await call('POST', '/payments/references', reference);
      assert.equal(status, 200);
      assert.deepEqual(validateResource('envelope.schema.json', body), []);
      assert.equal(typeof body.data.id, 'string');
    });
    await t.test('embed without an action redirect is refused with 422: Prism honours if/then', async () => {
      const [embed] = fc.sample(checkoutVariants.embedWeb, { seed, numRuns: 1 });
      const { status } = await call('POST', '/checkouts', { ...embed, redirects: [] });
      assert.equal(status, 422);
    });
    // x-not-before (validDate.end not before start) is this suite's own ajv keyword: Prism ignores it.
    const prismSees = (broken: BrokenCase) => broken.name !== 'end before start';
    const cases: [string, BrokenCase][] = [
      ...brokenCheckouts.map((broken): [string, BrokenCase] => ['/checkouts', broken]),
      ...brokenReferences.filter(prismSees).map((broken): [string, BrokenCase] => ['/payments/references', broken]),
    ];
    await t.test('every other broken request is refused with 422', async () => {
      for (const [path, broken] of cases) {
        for (const request of fc.sample(broken.arbitrary, { seed, numRuns: 3 })) {
          const { status } = await call('POST', path, request);
          assert.equal(status, 422, `${broken.name}: ${JSON.stringify(request)}`);
        }
      }
    });
  } finally {
    await prism.stop();
  }
});
