/** Reference 1 and 6: notifications of confirmed references, to callbackUrl or to the webhook. */
import { validReference } from '../generators/index.ts';
import { checkConfirmed, checkNotificationIdentifies, identifiesPayment, paymentOf, type Problem } from '../src/checks/index.ts';
import { tags, test, type Api, type Receiver, type ReceivedRequest } from './fixtures.ts';
import { createReference, getPayment, outsideWindow, quietMs, sample } from './flows.ts';
import type { RunConfig } from '../src/run-config.ts';

/** A reference valid now, notified at a fresh path of the receiver (or at the webhook, without callbackUrl). */
async function referenceFor(run: RunConfig, api: Api, callbackUrl: string | undefined) {
  const request = { ...sample(run, validReference({ callback: 'without', around: new Date() })), ...(callbackUrl && { callbackUrl }) };
  const { paymentId } = await createReference(api, request);
  const reference = paymentOf(await getPayment(api, paymentId))?.referenceDetails?.reference;
  return { id: paymentId, reference };
}

function noted(api: Api, notification: ReceivedRequest | undefined, note: string): ReceivedRequest | undefined {
  if (notification) api.note({ request: notification, response: null, note });
  return notification;
}

function missing(clause: string, where: string, run: RunConfig): Problem {
  return { clause, message: `notification: expected one at ${where} within ${run.profile.timeouts.eventMs} ms of the confirmation, got none` };
}

const about = (payment: { id: string; reference?: string }, path: string) => (request: ReceivedRequest) =>
  request.path === path && identifiesPayment(request, payment);

test.describe('notifications to callbackUrl', () => {
  test('a paid and confirmed reference is notified at its callbackUrl, naming the payment, which then reads confirmed', { tag: tags('EVT-1', 'EVT-3', 'REF-6') }, async ({ run, api, helpers, receiver }) => {
    const path = receiver.newPath('callback');
    const payment = await referenceFor(run, api, receiver.urlOf(path));
    await helpers.confirm(payment.id);
    const notification = noted(api, await receiver.waitFor((request) => request.path === path, run.profile.timeouts.eventMs), 'received at callbackUrl');
    const problems = notification ? checkNotificationIdentifies(notification, payment) : [missing('EVT-1', 'callbackUrl', run)];
    api.expectNoProblems([...problems, ...checkConfirmed(await getPayment(api, payment.id))]);
  });

  test('no notification is sent for a reference that was not paid', { tag: tags('EVT-4') }, async ({ run, api, receiver }) => {
    const path = receiver.newPath('callback');
    await referenceFor(run, api, receiver.urlOf(path));
    const notification = noted(api, await receiver.waitFor((request) => request.path === path, quietMs(run)), 'received although unpaid');
    api.expectNoProblems(notification ? [{ clause: 'EVT-4', message: `notification at ${path}: expected none for an unpaid reference, got ${JSON.stringify(notification.body)}` }] : []);
  });

  test('a payment outside the validity window is refused and notifies nothing', { tag: tags('EVT-4', 'REF-7') }, async ({ run, api, helpers, receiver }) => {
    const path = receiver.newPath('callback');
    const request = { ...outsideWindow(sample(run, validReference({ callback: 'without' })), 'past'), callbackUrl: receiver.urlOf(path) };
    const { paymentId } = await createReference(api, request);
    const confirmation = await helpers.confirm(paymentId);
    const notification = noted(api, await receiver.waitFor((r) => r.path === path, quietMs(run)), 'received after a refused confirmation');
    const problems: Problem[] = [];
    if (confirmation.response.status < 400 || confirmation.response.status >= 500) {
      problems.push({ clause: 'REF-7', message: `confirm helper outside the window: expected a 4xx refusal (409), got ${confirmation.response.status}` });
    }
    if (notification) problems.push({ clause: 'EVT-4', message: `notification at ${path}: expected none after a payment outside the window, got ${JSON.stringify(notification.body)}` });
    api.expectNoProblems(problems);
  });
});

test.describe('notifications to the webhook', () => {
  // The webhook is global to the target: these tests set it, one after the other, in one worker.
  test.describe.configure({ mode: 'serial' });

  async function withWebhook(helpers: { setWebhook(url: string): Promise<void>; removeWebhook(): Promise<void> }, receiver: Receiver, body: (webhookPath: string) => Promise<void>) {
    const webhookPath = receiver.newPath('webhook');
    await helpers.setWebhook(receiver.urlOf(webhookPath));
    try {
      await body(webhookPath);
    } finally {
      await helpers.removeWebhook();
    }
  }

  test('a confirmed reference without callbackUrl is notified at the configured webhook, naming the payment', { tag: tags('EVT-2', 'EVT-3') }, async ({ run, api, helpers, receiver }) => {
    await withWebhook(helpers, receiver, async (webhookPath) => {
      const payment = await referenceFor(run, api, undefined);
      await helpers.confirm(payment.id);
      const notification = noted(api, await receiver.waitFor(about(payment, webhookPath), run.profile.timeouts.eventMs), 'received at the webhook');
      const anyAtWebhook = receiver.received(webhookPath);
      const problems = notification
        ? checkNotificationIdentifies(notification, payment)
        : anyAtWebhook.length > 0
          ? checkNotificationIdentifies(anyAtWebhook[0], payment)
          : [missing('EVT-2', 'the webhook', run)];
      api.expectNoProblems(problems);
    });
  });

  // Whether the webhook also hears of it is not said by the reference (section 6), so it is not checked.
  test('a reference with callbackUrl is notified at its callbackUrl even where a webhook is configured', { tag: tags('EVT-1') }, async ({ run, api, helpers, receiver }) => {
    await withWebhook(helpers, receiver, async () => {
      const callbackPath = receiver.newPath('callback');
      const payment = await referenceFor(run, api, receiver.urlOf(callbackPath));
      await helpers.confirm(payment.id);
      const atCallback = noted(api, await receiver.waitFor((r) => r.path === callbackPath, run.profile.timeouts.eventMs), 'received at callbackUrl');
      api.expectNoProblems(atCallback ? [] : [missing('EVT-1', 'callbackUrl (a webhook being configured too)', run)]);
    });
  });

  test('no notification reaches the webhook for a reference that was not paid', { tag: tags('EVT-4') }, async ({ run, api, helpers, receiver }) => {
    await withWebhook(helpers, receiver, async (webhookPath) => {
      const payment = await referenceFor(run, api, undefined);
      const notification = noted(api, await receiver.waitFor(about(payment, webhookPath), quietMs(run)), 'received although unpaid');
      api.expectNoProblems(notification ? [{ clause: 'EVT-4', message: `notification at the webhook: expected none for unpaid payment ${payment.id}, got one` }] : []);
    });
  });
});
