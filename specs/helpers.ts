/** The test helpers of shared/contracts/test-helpers.md (src/core/operations.ts), called through the specs' recording client. */
import { test } from '@playwright/test';
import type { PayRequest } from '../schemas/generated/types.ts';
import { show, type Exchange } from '../src/checks/index.ts';
import { operationNamed, pathOf, type OperationName } from '../src/core/operations.ts';
import { slowHelper } from '../src/core/needs.ts';
import { NoCompleteAnswer, type Api } from './api.ts';

export interface Helpers {
  registerCustomer(): Promise<string>;
  pay(checkoutId: string, body: PayRequest): Promise<Exchange>;
  confirm(paymentId: string, paidAt?: string): Promise<Exchange>;
  setWebhook(url: string): Promise<void>;
  removeWebhook(): Promise<void>;
}

export function helperClient(api: Api): Helpers {
  const ok = (status: number) => status >= 200 && status < 300;
  const call = async (name: OperationName, param: string | undefined, body: unknown, accepted: (status: number) => boolean) => {
    const { method } = operationNamed(name);
    const path = pathOf(name, param);
    const exchange = await api.send({ method, path, body }).catch((error: unknown) => {
      // A slow target is not a wrong one: the clauses of the test are not verified, rather than failed.
      if (error instanceof NoCompleteAnswer && error.timedOutAfterMs !== null)
        test.skip(true, `${slowHelper.reason} of ${error.timedOutAfterMs} ms (${method} ${path})`);
      throw error;
    });
    if (!accepted(exchange.response.status)) {
      throw new Error(api.masked(`test helper ${method} ${path} answered ${exchange.response.status}: ${show(exchange.response.body)}`));
    }
    return exchange;
  };
  return {
    async registerCustomer() {
      const exchange = await call('registerCustomer', undefined, {}, ok);
      return (exchange.response.body as { uuid: string }).uuid;
    },
    pay: (checkoutId, body) => call('payCheckout', checkoutId, body, () => true),
    confirm: (paymentId, paidAt) => call('confirmPayment', paymentId, paidAt ? { paidAt } : {}, () => true),
    async setWebhook(url) {
      await call('setWebhook', undefined, { url }, ok);
    },
    async removeWebhook() {
      await call('removeWebhook', undefined, undefined, (status) => ok(status) || status === 404);
    },
  };
}
