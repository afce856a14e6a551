/** Reference 2.1 and 9: the response envelope and the paths. */
import { checkoutVariants, validReference } from '../generators/index.ts';
import { checkEnvelope, checkReferenceCreated, checkServedAtPath, checkSuccess, paymentIdOf } from '../src/checks/index.ts';
import { helpersUsable, tags, test } from './fixtures.ts';
import { createCheckout, createReference, getPayment, listMethods, readPayment, sample, someCustomer } from './flows.ts';

test.describe('response envelope', () => {
  test('POST /checkouts answers the envelope with date, success and data', { tag: tags('ENV-1') }, async ({ run, api }) => {
    const exchange = await api.post('/checkouts', sample(run, checkoutVariants.atmPage));
    api.require(checkSuccess(exchange, 'CHK-1'));
    api.expectNoProblems(checkEnvelope(exchange, { versioned: true }));
  });

  test('GET /payments/{id} answers the envelope with date, success and data', { tag: tags('ENV-1') }, async ({ run, api }) => {
    const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without' })));
    api.expectNoProblems(checkEnvelope(await readPayment(api, paymentId), { versioned: false }));
  });

  test('GET /customers/{uuid}/paymentMethods answers the envelope with date, success and data', { tag: tags('ENV-1') }, async ({ run, api }) => {
    const exchange = await listMethods(api, await someCustomer(run, api));
    test.skip(!helpersUsable(run) && exchange.response.status >= 400, 'no test helpers to register a customer (none, or a live target), and the target refuses an unknown one');
    api.require(checkSuccess(exchange, 'PML-1'));
    api.expectNoProblems(checkEnvelope(exchange, { versioned: true }));
  });

  test('POST /checkouts and GET /customers/{uuid}/paymentMethods carry apiVersion as a string', { tag: tags('ENV-2') }, async ({ run, api }) => {
    const { exchange: created } = await createCheckout(api, sample(run, checkoutVariants.embedWeb));
    const listed = await listMethods(api, await someCustomer(run, api));
    const listProblems = listed.response.status < 400 ? checkEnvelope(listed, { versioned: true }) : [];
    api.expectNoProblems([...checkEnvelope(created, { versioned: true }), ...listProblems]);
  });

  test('the four operations answer directly under {base_url}, with no version segment', { tag: tags('ENV-4') }, async ({ run, api }) => {
    const checkout = await api.post('/checkouts', sample(run, checkoutVariants.atmPage));
    const reference = await api.post('/payments/references', sample(run, validReference({ callback: 'without' })));
    const methods = await listMethods(api, await someCustomer(run, api));
    // An unknown payment id may well be answered 404 (REF-10): the query is asked only of a payment the target created.
    const paymentId = paymentIdOf(reference);
    const payments = paymentId === undefined ? [] : [await getPayment(api, paymentId)];
    api.expectNoProblems([
      ...checkSuccess(checkout, 'CHK-1'),
      ...checkReferenceCreated(reference),
      ...[checkout, reference, ...payments, methods].flatMap(checkServedAtPath),
    ]);
  });
});
