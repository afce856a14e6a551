/** Reference 2.1 and 9: the response envelope and the paths. */
import { checkoutVariants, validReference } from '../generators/index.ts';
import { checkEnvelope, checkServedAtPath, checkSuccess, onlyClause } from '../src/checks/index.ts';
import { helpersUsable, tags, test } from './fixtures.ts';
import { createCheckout, createReference, getPayment, listMethods, sample, someCustomer } from './flows.ts';

test.describe('response envelope', () => {
  test('POST /checkouts answers the envelope with date, success and data', { tag: tags('ENV-1') }, async ({ run, api }) => {
    const exchange = await api.post('/checkouts', sample(run, checkoutVariants.atmPage));
    api.expectNoProblems([...checkSuccess(exchange, 'ENV-1'), ...onlyClause(checkEnvelope(exchange, { versioned: true }), 'ENV-1')]);
  });

  test('GET /payments/{id} answers the envelope with date, success and data', { tag: tags('ENV-1') }, async ({ run, api }) => {
    const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without' })));
    const exchange = await getPayment(api, paymentId);
    api.expectNoProblems([...checkSuccess(exchange, 'ENV-1'), ...checkEnvelope(exchange, { versioned: false })]);
  });

  test('GET /customers/{uuid}/paymentMethods answers the envelope with date, success and data', { tag: tags('ENV-1') }, async ({ run, api }) => {
    const exchange = await listMethods(api, await someCustomer(run, api));
    test.skip(!helpersUsable(run) && exchange.response.status >= 400, 'no test helpers to register a customer (none, or a live target), and the target refuses an unknown one');
    api.expectNoProblems([...checkSuccess(exchange, 'ENV-1'), ...onlyClause(checkEnvelope(exchange, { versioned: true }), 'ENV-1')]);
  });

  test('POST /checkouts and GET /customers/{uuid}/paymentMethods carry apiVersion as a string', { tag: tags('ENV-2') }, async ({ run, api }) => {
    const { exchange: created } = await createCheckout(api, sample(run, checkoutVariants.embedWeb));
    const listed = await listMethods(api, await someCustomer(run, api));
    const listProblems = listed.response.status < 400 ? checkEnvelope(listed, { versioned: true }) : [];
    api.expectNoProblems(onlyClause([...checkEnvelope(created, { versioned: true }), ...listProblems], 'ENV-2'));
  });

  test('the four operations answer directly under {base_url}, with no version segment', { tag: tags('ENV-4') }, async ({ run, api }) => {
    const checkout = await api.post('/checkouts', sample(run, checkoutVariants.atmPage));
    const reference = await api.post('/payments/references', sample(run, validReference({ callback: 'without' })));
    const payment = await getPayment(api, String((reference.response.body as { data?: { id?: unknown } })?.data?.id ?? 'unknown'));
    const methods = await listMethods(api, await someCustomer(run, api));
    api.expectNoProblems([
      ...checkSuccess(checkout, 'ENV-4'),
      ...checkSuccess(reference, 'ENV-4'),
      ...[checkout, reference, payment, methods].flatMap(checkServedAtPath),
    ]);
  });
});
