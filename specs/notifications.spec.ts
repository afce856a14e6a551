/** Reference 1 and 6: notifications of confirmed references, to callbackUrl or to the webhook. */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  callbackAddressClasses,
  checkoutPaymentPaths,
  checkoutVariants,
  validReference,
  webhookAddressClasses,
  type InputClass,
} from '../src/generators/index.ts';
import {
  checkConfirmed,
  checkNotConfirmed,
  checkNotified,
  checkNotNotified,
  identifiesPayment,
  ofKind,
  paymentOf,
  paymentsOfLedger,
  type LedgerEntry,
  type PaymentNames,
} from '../src/checks/index.ts';
import { exercises, lastsEventMs, tags, test, waitsOutEventMs, type Api, type Receiver, type ReceivedRequest } from '../src/harness/fixtures.ts';
import {
  createCheckout,
  createClosedReference,
  exerciseClasses,
  mustSucceed,
  quietMs,
  readSettled,
  referenceCreated,
  refusedWhereFree,
  sample,
} from '../src/harness/flows.ts';
import type { RunConfig } from '../src/core/run-config.ts';
import type { RecordedRequest } from '../src/core/evidence.ts';
import { followLedger, readLedger } from '../src/harness/ledger.ts';
import { endWatch, holdingWebhook, startWatch, watchedAddress } from '../src/harness/webhook-lock.ts';

const ledgerPollMs = 200;

/** A reference valid now, notified at callbackUrl where given (else at the webhook): the names of its payment, or why it was not made where its class leaves the target free to refuse it. */
async function referenceFor(run: RunConfig, api: Api, callbackUrl: string | undefined): Promise<Names>;
async function referenceFor(run: RunConfig, api: Api, callbackUrl: string, inputClass: InputClass): Promise<Names | { skipped: string }>;
async function referenceFor(run: RunConfig, api: Api, callbackUrl: string | undefined, inputClass?: InputClass): Promise<Names | { skipped: string }> {
  const request = { ...sample(run, validReference({ callback: 'without', around: new Date() })), ...(callbackUrl && { callbackUrl }) };
  const exchange = await api.call('createReference', { body: request });
  const refused = inputClass && refusedWhereFree(exchange, inputClass);
  if (refused) return refused;
  const { paymentId } = referenceCreated(api, exchange);
  return namesOf(api, paymentId);
}

type Names = PaymentNames & { id: string };

/** The payment's id and its reference as GET /payments/{id} shows it. */
async function namesOf(api: Api, paymentId: string): Promise<Names> {
  const reference = paymentOf(await api.call('getPayment', { param: paymentId }))?.referenceDetails?.reference;
  return { id: paymentId, reference };
}

/** An MB checkout (the ATM page's row): the names of its payment, whose reference the customer pays at an ATM. */
async function atmCheckoutFor(run: RunConfig, api: Api): Promise<Names & { checkoutId: string }> {
  const { checkout } = await createCheckout(api, sample(run, checkoutVariants.atmPage));
  return { ...(await namesOf(api, checkout.paymentId)), checkoutId: checkout.id };
}

/** What the run's receivers take (the ledger, followed) that the predicate counts, until some comes or the time is up. */
async function receivedAnywhere(follow: () => LedgerEntry[], counts: (request: RecordedRequest) => boolean, timeoutMs: number): Promise<RecordedRequest[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const counted = ofKind(follow(), 'notification')
      .map(({ request }) => request)
      .filter(counts);
    if (counted.length > 0 || Date.now() >= until) return counted;
    await sleep(Math.min(ledgerPollMs, until - Date.now()));
  }
}

/** Waits for a request at the path that satisfies the predicate, then takes every request received there so far as evidence. */
async function receivedAt(
  api: Api,
  receiver: Receiver,
  path: string,
  options: { until?: (request: ReceivedRequest) => boolean; timeoutMs: number; note: string },
): Promise<ReceivedRequest[]> {
  const until = options.until ?? (() => true);
  await receiver.waitFor((request) => request.path === path && until(request), options.timeoutMs);
  const received = receiver.received(path);
  for (const request of received) api.note({ request, response: null, note: options.note });
  return received;
}

const naming = (payment: PaymentNames) => (request: ReceivedRequest) => identifiesPayment(request, payment);

/** A callbackUrl at a fresh path of the receiver, with a query of its own that the notification must keep. */
function callbackAddress(receiver: Receiver): { path: string; url: string } {
  const path = receiver.newPath('callback');
  return { path, url: `${receiver.urlOf(path)}?shop=7&channel=callback` };
}

test.describe('notifications to callbackUrl', () => {
  test(
    'a paid and confirmed reference is notified at its callbackUrl, its query kept, naming the payment, which reads confirmed as its notification arrives (every class)',
    {
      tag: tags('EVT-1', 'EVT-3', 'REF-6'),
      annotation: [...exercises('EVT-3', 'at its callbackUrl'), ...exercises('REF-6', 'confirmed and notified at its callbackUrl')],
    },
    async ({ run, api, interbank, receiver }) => {
      await exerciseClasses(run, api, 'EVT-1', callbackAddressClasses, async (tail, inputClass) => {
        const path = receiver.newPath('callback', tail.path);
        const address = tail.write(receiver.urlOf(path));
        const payment = await referenceFor(run, api, address, inputClass);
        if ('skipped' in payment) return payment;
        await mustSucceed(api, interbank.confirm(payment.id));
        const withinMs = run.profile.timeouts.eventMs;
        const received = await receivedAt(api, receiver, path, { timeoutMs: withinMs, note: 'received at callbackUrl' });
        // The service notifies once the network has confirmed: read as its notification arrives, the payment is confirmed already.
        const read = received.some(naming(payment))
          ? await api.call('getPayment', { param: payment.id })
          : await readSettled(run, api, payment.id, 'confirmed');
        return [...checkNotified(received, { payment, clause: 'EVT-1', where: 'callbackUrl', address, withinMs }), ...checkConfirmed(read)];
      });
    },
  );

  test(
    'no notification is sent for a reference that was not paid',
    { tag: [...tags('EVT-4'), waitsOutEventMs], annotation: exercises('EVT-4', 'not paid, with callbackUrl') },
    async ({ run, api, receiver }) => {
      const callback = callbackAddress(receiver);
      await referenceFor(run, api, callback.url);
      const received = await receivedAt(api, receiver, callback.path, { timeoutMs: quietMs(run), note: 'received although unpaid' });
      api.expectNoProblems(checkNotNotified(received, { why: 'for an unpaid reference' }));
    },
  );

  test(
    'a payment outside the validity window confirms nothing and notifies nothing',
    {
      tag: [...tags('EVT-4', 'REF-7'), waitsOutEventMs],
      annotation: [...exercises('EVT-4', 'paid outside its window, with callbackUrl'), ...exercises('REF-7', 'paid after the window closed, with callbackUrl')],
    },
    async ({ run, api, interbank, receiver }) => {
      const callback = callbackAddress(receiver);
      const { paymentId } = await createClosedReference(api, { ...sample(run, validReference({ callback: 'without' })), callbackUrl: callback.url });
      const confirmation = await interbank.confirm(paymentId);
      const received = await receivedAt(api, receiver, callback.path, { timeoutMs: quietMs(run), note: 'received after a payment outside the window' });
      api.expectNoProblems([
        ...checkNotConfirmed(await readSettled(run, api, paymentId, 'unchanged', confirmation), { why: 'after a payment outside the window' }),
        ...checkNotNotified(received, { why: 'after a payment outside the window' }),
      ]);
    },
  );
});

/** Points the webhook at a fresh path of the receiver. */
async function pointWebhook(interbank: { setWebhook(url: string): Promise<void> }, receiver: Receiver) {
  const path = receiver.newPath('webhook');
  const address = receiver.urlOf(path);
  await interbank.setWebhook(address);
  return { path, address };
}

/**
 * Keeps a watch on the webhook while the body runs: announced at once (the model's sequences wait
 * from then on), the body points the webhook and starts it at that address, and at the end the
 * webhook is removed.
 */
async function watchingWebhook<T>(run: RunConfig, interbank: { removeWebhook(): Promise<void> }, body: () => Promise<T>): Promise<T> {
  startWatch(run, null);
  try {
    return await body();
  } finally {
    await holdingWebhook(
      run,
      async () => {
        endWatch(run);
        await interbank.removeWebhook();
      },
      'pointing',
    );
  }
}

// The webhook is one setting of the whole target, which the model of the whole service (model.spec.ts)
// moves too: a test holds the run's webhook lock while it depends on where the webhook points
// (webhook-lock.ts). This one needs it to point at a receiver of the run for a whole window: it keeps
// a watch on it instead, and looks for what must not come at every receiver of the run (the ledger),
// so that the tests below, which point it at receivers of the run too, take their turns in its window.
test(
  'no notification reaches the webhook, or any address of the run, for a reference that was not paid',
  {
    tag: [...tags('EVT-4'), waitsOutEventMs],
    annotation: exercises('EVT-4', 'not paid, a webhook configured', "an MB checkout's reference not paid, a webhook configured"),
  },
  async ({ run, api, interbank, receiver }) => {
    const { judged, received } = await watchingWebhook(run, interbank, async () => {
      const follow = followLedger(run.outDir);
      const unpaid = await holdingWebhook(
        run,
        async () => {
          const { address } = await pointWebhook(interbank, receiver);
          startWatch(run, address);
          return [
            { why: 'for an unpaid reference', about: await referenceFor(run, api, undefined) },
            { why: "for an MB checkout's reference that was not paid", about: await atmCheckoutFor(run, api) },
          ];
        },
        'pointing',
      );
      // What names one of them is judged among every payment the run created: one that had its reference before it names it too.
      const judged = (received: readonly RecordedRequest[]) =>
        unpaid.flatMap(({ why, about }) => {
          const naming = received.filter((request) => identifiesPayment(request, about));
          const among = naming.length > 0 ? paymentsOfLedger(readLedger(run.outDir)) : [];
          return checkNotNotified(naming, { why, about, among });
        });
      // The webhook hears of every payment, some holding these ids by chance (as an amount, say): only
      // what the check counts ends the wait before eventMs has passed.
      const counted = (request: RecordedRequest) => judged([request]).length > 0;
      return { judged, received: await receivedAnywhere(follow, counted, quietMs(run)) };
    });
    for (const request of received) api.note({ request, response: null, note: 'received at a receiver of the run' });
    api.expectNoProblems(judged(received));
  },
);

// These point the webhook at the run's receivers one after the other, in one worker (one failing does
// not skip the others), beside the watch above, and take turns with the model's sequences that move
// it: they last about as long as those.
test.describe('notifications to the webhook', { tag: lastsEventMs }, () => {
  test.describe.configure({ mode: 'default' });

  /** A turn with the webhook, pointed back at the watched address (or removed) when it ends. */
  async function withWebhook<T>(
    run: RunConfig,
    interbank: { setWebhook(url: string): Promise<void>; removeWebhook(): Promise<void> },
    receiver: Receiver,
    body: (pointAt: () => Promise<{ path: string; address: string }>) => Promise<T>,
  ): Promise<T> {
    const pointAt = () => pointWebhook(interbank, receiver);
    const asked = Date.now();
    return holdingWebhook(
      run,
      async () => {
        // The wait for the webhook is spent in another test's turn with it: this test's time-out grows by it.
        test.setTimeout(test.info().timeout + (Date.now() - asked));
        try {
          return await body(pointAt);
        } finally {
          const watched = watchedAddress(run);
          await (watched ? interbank.setWebhook(watched) : interbank.removeWebhook());
        }
      },
      'pointing',
    );
  }

  /** A notification at the webhook (at path, set to address) naming the payment, within eventMs of its confirmation. */
  async function notifiedAtWebhook(run: RunConfig, api: Api, receiver: Receiver, webhook: { path: string; address: string }, payment: Names) {
    const withinMs = run.profile.timeouts.eventMs;
    const received = await receivedAt(api, receiver, webhook.path, { until: naming(payment), timeoutMs: withinMs, note: 'received at the webhook' });
    return checkNotified(received, { payment, clause: 'EVT-2', where: 'the webhook', address: webhook.address, withinMs });
  }

  // The webhook hears of every reference without callbackUrl, other tests' included: what counts is what names this payment.
  test(
    'a confirmed reference without callbackUrl is notified at the configured webhook, its address kept, naming the payment (every class)',
    {
      tag: tags('EVT-2', 'EVT-3'),
      annotation: [...exercises('EVT-2', 'without callbackUrl, a webhook configured'), ...exercises('EVT-3', 'at the webhook')],
    },
    async ({ run, api, interbank, receiver }) => {
      // A turn each: the quiet test's watch, asked for meanwhile, starts between two.
      await exerciseClasses(run, api, 'EVT-2', webhookAddressClasses, (tail, inputClass) =>
        withWebhook(run, interbank, receiver, async () => {
          const path = receiver.newPath('webhook', tail.path);
          const address = tail.write(receiver.urlOf(path));
          const setting = api.call('setWebhook', { body: { url: address } });
          const refused = refusedWhereFree(await setting, inputClass);
          if (refused) return refused;
          await mustSucceed(api, setting);
          const payment = await referenceFor(run, api, undefined);
          await mustSucceed(api, interbank.confirm(payment.id));
          return notifiedAtWebhook(run, api, receiver, { path, address }, payment);
        }),
      );
    },
  );

  // An MB checkout's reference is an ATM reference like those of POST /payments/references: paid and
  // confirmed by the network, it reads confirmed and is notified. Paying the checkout through the pay
  // helper (the customer, not the network) owes neither (sections 1 and 6): what the target does then is
  // recorded, never judged.
  test(
    "an MB checkout's reference, confirmed by the network, reads confirmed and is notified at the webhook, naming the payment",
    {
      tag: tags('EVT-2', 'EVT-3', 'REF-6'),
      annotation: [...exercises('EVT-2', checkoutPaymentPaths.confirmedByNetwork), ...exercises('REF-6', checkoutPaymentPaths.confirmedByNetwork)],
    },
    async ({ run, api, interbank, receiver, observe }) => {
      const paidByHelper = await withWebhook(run, interbank, receiver, async (pointAt) => {
        const webhook = await pointAt();
        const payment = await atmCheckoutFor(run, api);
        const answer = await interbank.pay(payment.checkoutId, { outcome: 'success', method: 'MB' });
        return { webhook, payment, status: answer.response.status };
      });
      const problems = await withWebhook(run, interbank, receiver, async (pointAt) => {
        const webhook = await pointAt();
        const payment = await atmCheckoutFor(run, api);
        await mustSucceed(api, interbank.confirm(payment.id));
        const notified = await notifiedAtWebhook(run, api, receiver, webhook, payment);
        const read = await readSettled(run, api, payment.id, 'confirmed');
        return [...notified, ...checkConfirmed(read)];
      });
      // By now the network's notification had its time: what the payment through the pay helper brought is recorded.
      const { webhook, payment, status } = paidByHelper;
      await observe.record(`${checkoutPaymentPaths.paidThroughHelper}: its payment's state, and what reached the webhook (not said: recorded, never judged)`, {
        payAnswered: status,
        state: paymentOf(await api.call('getPayment', { param: payment.id }))?.stateDetails?.state ?? null,
        notifications: receiver.received(webhook.path).filter(naming(payment)).length,
      });
      api.expectNoProblems(problems);
    },
  );

  // Whether the webhook also hears of it is not said by the reference (section 6), so it is not checked.
  test(
    'a reference with callbackUrl is notified at its callbackUrl even where a webhook is configured',
    { tag: tags('EVT-1') },
    async ({ run, api, interbank, receiver }) => {
      await withWebhook(run, interbank, receiver, async (pointAt) => {
        await pointAt();
        const callback = callbackAddress(receiver);
        const payment = await referenceFor(run, api, callback.url);
        await mustSucceed(api, interbank.confirm(payment.id));
        const withinMs = run.profile.timeouts.eventMs;
        const received = await receivedAt(api, receiver, callback.path, { timeoutMs: withinMs, note: 'received at callbackUrl' });
        api.expectNoProblems(
          checkNotified(received, { payment, clause: 'EVT-1', where: 'callbackUrl (a webhook being configured too)', address: callback.url, withinMs }),
        );
      });
    },
  );
});
