import type { PayRequest } from '../../schemas/generated/types.ts';
import type { Exchange } from './evidence.ts';

/** The test helpers of shared/contracts/test-helpers.md, as the suite calls them. */
export interface TestHelpers {
  /** Registers a customer, under the merchant's own number for it where one is given. */
  registerCustomer(customerId?: string): Promise<string>;
  pay(checkoutId: string, body: PayRequest): Promise<Exchange>;
  confirm(paymentId: string, paidAt?: string): Promise<Exchange>;
  setWebhook(url: string): Promise<void>;
  removeWebhook(): Promise<void>;
}
