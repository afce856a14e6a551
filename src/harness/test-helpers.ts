/** The test helpers of shared/contracts/test-helpers.md (src/core/operations.ts), called through the specs' recording client. */
import { test } from '@playwright/test';
import type { RegisterCustomerAnswer } from '../../schemas/generated/types.ts';
import { show } from '../checks/index.ts';
import type { TestHelpers } from '../core/test-helpers.ts';
import { requestOf, type CallArguments, type OperationName } from '../core/operations.ts';
import { slowHelper } from '../core/needs.ts';
import { NoCompleteAnswer, type Api } from './api.ts';

export type { TestHelpers } from '../core/test-helpers.ts';

export function helperClient(api: Api): TestHelpers {
  const ok = (status: number) => status >= 200 && status < 300;
  const any = () => true;
  const call = async <Name extends OperationName>(accepted: (status: number) => boolean, name: Name, ...options: CallArguments<Name>) => {
    const { method, path } = requestOf(name, options[0]);
    const exchange = await api.call(name, ...options).catch((error: unknown) => {
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
    async registerCustomer(customerId) {
      const exchange = await call(ok, 'registerCustomer', { body: customerId === undefined ? {} : { customerId } });
      return (exchange.response.body as RegisterCustomerAnswer).uuid;
    },
    pay: (checkoutId, body) => call(any, 'payCheckout', { param: checkoutId, body }),
    confirm: (paymentId, paidAt) => call(any, 'confirmPayment', { param: paymentId, body: paidAt ? { paidAt } : {} }),
    async setWebhook(url) {
      await call(ok, 'setWebhook', { body: { url } });
    },
    async removeWebhook() {
      await call((status) => ok(status) || status === 404, 'removeWebhook');
    },
  };
}
