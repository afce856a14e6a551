/** Steps that several specs take: create a checkout or a reference, read a payment, list stored methods. */
import fc from 'fast-check';
import type { Checkout, CheckoutRequest, ReferenceRequest } from '../schemas/generated/types.ts';
import type { RunConfig } from '../src/run-config.ts';
import { checkSuccess, checkoutOf, paymentIdOf, type Exchange } from '../src/checks/index.ts';
import { randomUUID } from 'node:crypto';
import { helperClient, helpersUsable, test, type Api } from './fixtures.ts';

/** n values of an arbitrary, drawn from the run's seed (distinct draws, the same on every replay). */
export function samples<T>(run: RunConfig, arbitrary: fc.Arbitrary<T>, n = 1): T[] {
  return fc.sample(arbitrary, { seed: run.seed, numRuns: n });
}
export const sample = <T>(run: RunConfig, arbitrary: fc.Arbitrary<T>): T => samples(run, arbitrary)[0];

/** A checkout request made for a registered customer, where it names one. */
export function forCustomer(request: CheckoutRequest, uuid: string | undefined): CheckoutRequest {
  if (!uuid || !request.payment?.customer?.uuid) return request;
  return { ...request, payment: { ...request.payment, customer: { ...request.payment.customer, uuid } } };
}

/** Creates a checkout that a later step needs; a target that does not create it fails with CHK-1. */
export async function createCheckout(api: Api, request: CheckoutRequest): Promise<{ exchange: Exchange; checkout: Checkout }> {
  const exchange = await api.post('/checkouts', request);
  api.expectNoProblems(checkSuccess(exchange, 'CHK-1'));
  const checkout = checkoutOf(exchange);
  if (typeof checkout?.id !== 'string' || typeof checkout.checkoutUrl !== 'string') {
    api.expectNoProblems([{ clause: 'CHK-2', message: `POST /checkouts response /data: expected id and checkoutUrl, got ${JSON.stringify(checkout)}` }]);
  }
  return { exchange, checkout: checkout! };
}

/**
 * Creates a reference and takes its payment id from data.id; a target that answers no id makes
 * the test skip (REF-10 records what it answered).
 */
export async function createReference(api: Api, request: ReferenceRequest): Promise<{ exchange: Exchange; paymentId: string }> {
  const exchange = await api.post('/payments/references', request);
  api.expectNoProblems(checkSuccess(exchange, 'REF-1'));
  const paymentId = paymentIdOf(exchange);
  test.skip(paymentId === undefined, 'target answered no payment id (REF-10)');
  return { exchange, paymentId: paymentId! };
}

export const getPayment = (api: Api, paymentId: string) => api.get(`/payments/${encodeURIComponent(paymentId)}`);
export const listMethods = (api: Api, uuid: string) => api.get(`/customers/${encodeURIComponent(uuid)}/paymentMethods`);

/** A validity window that closed yesterday, or opens tomorrow: never contains now. */
export function outsideWindow(request: ReferenceRequest, when: 'past' | 'future'): ReferenceRequest {
  const day = 24 * 60 * 60 * 1000;
  const start = when === 'past' ? Date.now() - 3 * day : Date.now() + day;
  return { ...request, validDate: { start: new Date(start).toISOString(), end: new Date(start + day).toISOString() } };
}

/** How long to wait for something that must not happen (a notification, a post to the action URL). */
export const quietMs = (run: RunConfig) => Math.min(run.profile.timeouts.eventMs, 1500);

/** A registered customer where the run may use test helpers, else a UUID the target has never seen. */
export async function someCustomer(run: RunConfig, api: Api): Promise<string> {
  return helpersUsable(run) ? helperClient(api).registerCustomer() : randomUUID();
}
