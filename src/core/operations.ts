/**
 * Every operation the suite calls or sees, once: the four of the reference (section 4) and the test
 * helpers of shared/contracts/test-helpers.md, each with its method, its path as the documents write
 * it, and the pattern that recognises it (a trailing slash allowed, the path parameter captured).
 */
export type OperationName =
  | 'createCheckout'
  | 'listMethods'
  | 'createReference'
  | 'getPayment'
  | 'registerCustomer'
  | 'payCheckout'
  | 'confirmPayment'
  | 'setWebhook'
  | 'removeWebhook'
  | 'getWebhook'
  | 'listNotifications';

export interface Operation {
  name: OperationName;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** As the reference or the contract writes it, e.g. "/customers/{uuid}/paymentMethods". */
  path: string;
  /** An operation of the reference (else a test helper, which the reference does not have). */
  ofReference: boolean;
}

export const operations: readonly Operation[] = [
  { name: 'createCheckout', method: 'POST', path: '/checkouts', ofReference: true },
  { name: 'listMethods', method: 'GET', path: '/customers/{uuid}/paymentMethods', ofReference: true },
  { name: 'createReference', method: 'POST', path: '/payments/references', ofReference: true },
  { name: 'getPayment', method: 'GET', path: '/payments/{id}', ofReference: true },
  { name: 'registerCustomer', method: 'POST', path: '/test-helpers/customers', ofReference: false },
  { name: 'payCheckout', method: 'POST', path: '/test-helpers/checkouts/{checkoutId}/pay', ofReference: false },
  { name: 'confirmPayment', method: 'POST', path: '/test-helpers/payments/{paymentId}/confirm', ofReference: false },
  { name: 'setWebhook', method: 'PUT', path: '/test-helpers/webhook', ofReference: false },
  { name: 'removeWebhook', method: 'DELETE', path: '/test-helpers/webhook', ofReference: false },
  // The sandbox's own, not in the contract: the webhook it holds, and the notification attempts it made.
  { name: 'getWebhook', method: 'GET', path: '/test-helpers/webhook', ofReference: false },
  { name: 'listNotifications', method: 'GET', path: '/test-helpers/notifications', ofReference: false },
];

export const operationNamed = (name: OperationName): Operation => operations.find((operation) => operation.name === name)!;

/** How reports name an operation: "GET /payments/{id}". */
export const titleOf = (name: OperationName): string => {
  const { method, path } = operationNamed(name);
  return `${method} ${path}`;
};

/** The path of a call: the template with its parameter filled in, encoded. */
export function pathOf(name: OperationName, param?: string): string {
  return operationNamed(name).path.replace(/\{\w+\}/, () => encodeURIComponent(param ?? ''));
}

const patterns = new Map(operations.map((operation) => [operation, new RegExp(`^${operation.path.replace(/\{\w+\}/, '([^/]+)')}/?$`)]));

/**
 * The operation a request calls and its path parameter (decoded); null for any other request
 * (hosted pages, paths the documents do not give). The query is ignored.
 */
export function operationAt(method: string, pathAndQuery: string): { operation: Operation; param: string | null } | null {
  const path = pathAndQuery.split('?')[0];
  for (const [operation, pattern] of patterns) {
    const match = method === operation.method ? pattern.exec(path) : null;
    if (match) return { operation, param: match[1] === undefined ? null : decodeURIComponent(match[1]) };
  }
  return null;
}

/** A UUID in its canonical form, either case. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
