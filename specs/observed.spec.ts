/** What the reference marks "not shown": observed and recorded (INFO), never failed. */
import { randomUUID } from 'node:crypto';
import { checkoutVariants, validReference } from '../src/generators/index.ts';
import type { CheckoutRequest } from '../schemas/generated/types.ts';
import { paymentIdOf, paymentOf, type Exchange } from '../src/checks/index.ts';
import { observeSignature } from '../src/core/observations.ts';
import { titleOf } from '../src/core/operations.ts';
import { helpersUsable, tags, test, waitsOutEventMs } from '../src/harness/fixtures.ts';
import { createReference, forCustomer, quietMs, sample, someCustomer } from '../src/harness/flows.ts';

const answer = ({ response }: Exchange) => ({ status: response.status, contentType: response.headers['content-type'] ?? null, body: response.body });

test(`whether ${titleOf('getPayment')} carries apiVersion`, { tag: tags('ENV-3') }, async ({ run, api, observe }) =>
  observe.safely(async () => {
    const { paymentId } = await createReference(api, sample(run, validReference({ callback: 'without' })));
    const body = (await api.call('getPayment', { param: paymentId })).response.body as { apiVersion?: unknown };
    await observe.record('apiVersion of the payment query', body?.apiVersion ?? 'absent');
  }),
);

test('content types and status codes of successful responses', { tag: tags('ENV-5') }, async ({ run, api, observe }) =>
  observe.safely(async () => {
    const created = await api.call('createCheckout', { body: sample(run, checkoutVariants.atmPage) });
    const reference = await api.call('createReference', { body: sample(run, validReference({ callback: 'without' })) });
    const payment = await api.call('getPayment', { param: paymentIdOf(reference) ?? 'unknown' });
    const methods = await api.call('listMethods', { param: await someCustomer(run, api) });
    const seen = Object.fromEntries(
      (
        [
          ['createCheckout', created],
          ['createReference', reference],
          ['getPayment', payment],
          ['listMethods', methods],
        ] as const
      ).map(([operation, exchange]) => [
        titleOf(operation),
        { status: exchange.response.status, contentType: exchange.response.headers['content-type'] ?? null },
      ]),
    );
    await observe.record('status and Content-Type per operation', seen);
  }),
);

test(
  `required fields, values beyond those listed, currency and refusals of ${titleOf('createCheckout')}`,
  { tag: tags('CHK-13') },
  async ({ run, api, observe }) =>
    observe.safely(async () => {
      const base = sample(run, checkoutVariants.atmPage);
      const customer = await someCustomer(run, api);
      // Rule 3 is not broken by an absent method code (CHK-10): the target may default it or let the customer choose.
      const withoutCode = (request: CheckoutRequest) => {
        const { code: _code, ...method } = request.payment!.paymentMethod!;
        return forCustomer({ ...request, payment: { ...request.payment, paymentMethod: method } }, customer);
      };
      const variants: Record<string, CheckoutRequest> = {
        'store a payment method without paymentMethod.code': withoutCode(sample(run, checkoutVariants.storeMethod)),
        'store with customer consent without paymentMethod.code': withoutCode(sample(run, checkoutVariants.storeWithConsent)),
        'empty body': {},
        'amount only': { payment: { amount: 500 } },
        'page.language EN': { ...base, page: { ...base.page, language: 'EN' } },
        'page.layout other': { ...base, page: { ...base.page, layout: 'fullscreen' } },
        'paymentMethod.code DD': { ...base, payment: { ...base.payment, paymentMethod: { code: 'DD' } } },
        'redirects[].type success': { ...base, redirects: [{ type: 'success', url: 'https://shop.example/ok' }] },
        'payment.currency USD': { ...base, payment: { ...base.payment, currency: 'USD' } } as CheckoutRequest,
        'embed without action (a refusal)': { ...sample(run, checkoutVariants.embedWeb), redirects: [] },
      };
      const seen: Record<string, unknown> = {};
      for (const [name, request] of Object.entries(variants)) seen[name] = answer(await api.call('createCheckout', { body: request }));
      await observe.record(`answers of ${titleOf('createCheckout')} beyond the listed values`, seen);
    }),
);

test(
  'stored-method lists for a customer with nothing stored, an unknown customer and a uuid that is not a UUID',
  { tag: tags('PML-7') },
  async ({ run, api, observe }) =>
    observe.safely(async () => {
      const seen: Record<string, unknown> = {};
      if (helpersUsable(run)) seen['registered, nothing stored'] = answer(await api.call('listMethods', { param: await someCustomer(run, api) }));
      seen['unknown customer'] = answer(await api.call('listMethods', { param: randomUUID() }));
      seen['not a UUID'] = answer(await api.call('listMethods', { param: 'not-a-uuid' }));
      await observe.record(`answers of ${titleOf('listMethods')}`, seen);
    }),
);

test(
  'the reference creation answer, the state before payment, an unknown payment id and a window already over',
  { tag: tags('REF-10') },
  async ({ run, api, observe }) =>
    observe.safely(async () => {
      const request = sample(run, validReference({ callback: 'without' }));
      const created = await api.call('createReference', { body: request });
      const paymentId = paymentIdOf(created);
      const before = paymentId ? paymentOf(await api.call('getPayment', { param: paymentId }))?.stateDetails?.state : undefined;
      const unknown = await api.call('getPayment', { param: `unknown-${randomUUID()}` });
      // REF-1: a window that has already ended may be refused or accepted.
      const day = 24 * 60 * 60 * 1000;
      const over = { ...request, validDate: { start: new Date(Date.now() - 2 * day).toISOString(), end: new Date(Date.now() - day).toISOString() } };
      const closedWindow = await api.call('createReference', { body: over });
      await observe.record('reference creation, state before payment, unknown id, window already over', {
        creation: answer(created),
        paymentIdFromDataId: paymentId ?? 'none: the checks that need it are skipped',
        stateBeforePayment: before ?? null,
        unknownPaymentId: answer(unknown),
        windowAlreadyOver: answer(closedWindow),
      });
    }),
);

test('notification payload, headers and signature', { tag: [...tags('EVT-5'), waitsOutEventMs] }, async ({ run, api, interbank, receiver, observe }) =>
  observe.safely(async () => {
    const path = receiver.newPath('callback');
    const { paymentId } = await createReference(api, {
      ...sample(run, validReference({ callback: 'without', around: new Date() })),
      callbackUrl: receiver.urlOf(path),
    });
    await interbank.confirm(paymentId);
    const notification = await receiver.waitFor((request) => request.path === path, run.profile.timeouts.eventMs);
    const retried = notification ? await receiver.waitFor((request) => request.path === path && request !== notification, quietMs(run)) : undefined;
    if (notification) api.note({ request: notification, response: null, note: 'the notification as received' });
    const secret = run.profile.notificationSecret;
    await observe.record('the notification of a confirmed reference', {
      received: Boolean(notification),
      method: notification?.method,
      headers: notification?.headers,
      body: notification?.body,
      signature: notification && secret ? observeSignature(notification.headers, notification.rawBody, secret) : 'no notificationSecret in the profile',
      sentAgainAfterA200: Boolean(retried),
    });
  }),
);

test('how the target authenticates callers: a request without credentials', { tag: tags('SEC-1') }, async ({ run, api, observe }) =>
  observe.safely(async () => {
    const withoutCredentials = await api.call('createCheckout', { body: sample(run, checkoutVariants.atmPage), withoutCredentials: true });
    await observe.record(`${titleOf('createCheckout')} without the run's headers`, {
      headerNames: Object.keys(run.headers),
      answer: answer(withoutCredentials),
    });
  }),
);

test('amount bounds and field lengths', { tag: tags('SEC-2') }, async ({ run, api, observe }) =>
  observe.safely(async () => {
    const base = sample(run, checkoutVariants.atmPage);
    const seen: Record<string, unknown> = {};
    for (const [name, payment] of Object.entries({
      'amount 1': { amount: 1 },
      'amount 2^31-1': { amount: 2 ** 31 - 1 },
      'amount 2^53-1': { amount: Number.MAX_SAFE_INTEGER },
      'summary of 10,000 characters': { summary: 'x'.repeat(10_000) },
    })) {
      seen[name] = (({ status, body }) => ({ status, body }))(
        answer(await api.call('createCheckout', { body: { ...base, payment: { ...base.payment, ...payment } } })),
      );
    }
    await observe.record('answers at the edges (rate limits and checkout expiry are not probed)', seen);
  }),
);
