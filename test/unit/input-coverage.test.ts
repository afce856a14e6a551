import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyValue, inputFields, partitionsOf, valuesAt } from '../../src/core/partitions.ts';
import { exemption, inputCoverageOf, missingObligations } from '../../src/report/input-coverage.ts';
import { operations } from '../../src/core/operations.ts';

const fieldOf = (operation: string, field: string) => inputFields().find((one) => one.operation === operation && one.field === field)!;

test('every field of every request body and path parameter has the partitions of its type, from the schemas alone', () => {
  const fields = inputFields();
  for (const operation of operations.filter((one) => one.request !== null))
    assert.ok(
      fields.some((field) => field.operation === operation.name),
      operation.name,
    );
  assert.deepEqual(fieldOf('createCheckout', 'payment.paymentMethod.details.createRegistration').partitions, [
    'absent',
    'null',
    'true',
    'false',
    'another JSON type',
  ]);
  assert.ok(fieldOf('createCheckout', 'page.layout').partitions.includes('"embed"'));
  assert.ok(fieldOf('createCheckout', 'redirects[].url').partitions.includes('scheme in capitals'));
  assert.ok(fieldOf('listMethods', '{uuid}').partitions.includes('capitals'));
  assert.ok(fieldOf('payCheckout', 'card.holder'), 'a branch of a oneOf brings its fields');
  assert.deepEqual(
    fieldOf('payCheckout', 'method').partitions.filter((partition) => partition.startsWith('"')),
    ['"CC"', '"MW"', '"MB"'],
  );
  assert.ok(!fieldOf('createCheckout', 'redirects[]').partitions.includes('absent'), 'an element is never absent from its array');
  assert.deepEqual(partitionsOf({ type: 'array' }).slice(2, 6), ['empty', 'one', 'several', 'duplicates']);
});

test('a value falls in the partitions of its field: presence, type, lengths, scripts, case, formats, digits', () => {
  const classify = (operation: string, field: string, value: unknown) => classifyValue(fieldOf(operation, field).schema, value);
  assert.deepEqual(classify('createCheckout', 'payment.paymentMethod.details.allowRegistration', false), ['false']);
  assert.deepEqual(classify('createCheckout', 'payment.paymentMethod.details.allowRegistration', undefined), ['absent']);
  assert.deepEqual(classify('createCheckout', 'payment.paymentMethod.details.allowRegistration', 'true'), ['another JSON type']);
  assert.deepEqual(classify('createCheckout', 'payment.amount', 1005), ['cents 01-09']);
  assert.deepEqual(classify('createCheckout', 'payment.amount', 3_000_000_000), ['whole units', 'past 2^31']);
  assert.deepEqual(classify('createCheckout', 'payment.customer.uuid', 'F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6'), ['capitals']);
  assert.deepEqual(classify('createCheckout', 'payment.customer.firstName', 'Ελένη'), ['non-Latin script']);
  assert.deepEqual(classify('createCheckout', 'payment.customer.firstName', 'Zoë'), []);
  assert.deepEqual(classify('createCheckout', 'page.layout', 'Default'), ['a listed value in other letters']);
  assert.deepEqual(classify('createCheckout', 'page.layout', 'popup'), ['another value']);
  assert.deepEqual(classify('createCheckout', 'redirects[].url', 'HTTPS://shop.example:8443/done?order=7'), [
    'https',
    'with a port',
    'with a query',
    'scheme in capitals',
  ]);
  assert.deepEqual(classify('createReference', 'validDate.end', '2026-12-01T10:00:00.123-03:00'), ['behind UTC', 'fraction of a second']);
  assert.deepEqual(classify('createReference', 'availableMethods', [{ code: 'MB' }, { code: 'MB' }]), ['several', 'duplicates']);
  assert.deepEqual(classify('payCheckout', 'card.number', '************1111'), ['matches its pattern'], 'a masked card number stands for its digits');
});

test('values at a path: under arrays, absent where the holder lacks the field, none where there is no holder', () => {
  const body = { payment: { amount: 5 }, redirects: [{ type: 'action', url: 'https://a.example' }, { type: 'success' }] };
  assert.deepEqual(valuesAt(body, 'redirects[].url'), ['https://a.example', undefined]);
  assert.deepEqual(valuesAt(body, 'payment.customer.uuid'), []);
  assert.deepEqual(valuesAt(body, 'payment.code'), [undefined]);
});

test('the coverage of what was sent: partitions counted from the record, the obligations not met named, the test helpers driven only with what they take', () => {
  const coverage = inputCoverageOf([
    { operation: 'createCheckout', body: { payment: { amount: 500, paymentMethod: { details: { createRegistration: false } } } } },
    { operation: 'listMethods', param: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' },
    { operation: 'createCheckout', rawBody: true },
  ])!;
  const registration = coverage.fields.find((field) => field.field === 'payment.paymentMethod.details.createRegistration')!;
  assert.equal(registration.sent.false, 1);
  assert.deepEqual(
    registration.notSent.map(({ partition }) => partition),
    ['absent', 'null', 'true', 'another JSON type'],
  );
  assert.equal(coverage.fields.find((field) => field.field === '{uuid}')!.sent['small letters'], 1);
  assert.ok(missingObligations(coverage).includes('createCheckout payment.paymentMethod.details.createRegistration: true'));
  assert.equal(exemption(fieldOf('payCheckout', 'card.number'), 'breaks its pattern'), 'a test helper is driven with values it takes');
  assert.equal(exemption(fieldOf('payCheckout', 'card.holder'), 'non-Latin script'), null);
  assert.equal(inputCoverageOf([]), null);
});
