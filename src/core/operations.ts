/**
 * Every operation the suite calls or sees, once: the four of the reference (section 4) and the test
 * helpers of shared/contracts/test-helpers.md, each with its method, its path as the documents write
 * it, the schemas of its body and of its answer, and the pattern that recognises it (a trailing slash
 * allowed, the path parameter captured).
 */
import type { CheckoutRequest, ConfirmRequest, PayRequest, ReferenceRequest, RegisterCustomerRequest, WebhookRequest } from '../../schemas/generated/types.ts';

export type JsonSchema = { [keyword: string]: unknown };

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
  /** The schema of its body under schemas/ ("file" or "file#/$defs/name"); null where it takes none. */
  request: string | null;
  /**
   * The schema of its answer: one under schemas/, or composed from them; null where the documents show
   * none (the reference shows no answer to a reference's creation, REF-10).
   */
  answer: string | JsonSchema | null;
}

/** The body each operation takes, as schemas/generated/types.ts names the type of its request schema. */
export interface RequestBodies {
  createCheckout: CheckoutRequest;
  createReference: ReferenceRequest;
  registerCustomer: RegisterCustomerRequest;
  payCheckout: PayRequest;
  confirmPayment: ConfirmRequest;
  setWebhook: WebhookRequest;
}

const ref = (target: string) => ({ $ref: target });
/** The bodies and answers of the test helpers (shared/contracts/test-helpers.md): not the reference's, so without x-clauses. */
export const testHelperSchemaFile = 'test-helpers.schema.json';

/** The $ref of a test helper's body or answer, by its $defs name: payRequest, payAnswer… */
export const testHelperSchema = (name: string) => `${testHelperSchemaFile}#/$defs/${name}`;

/** The envelope of the operations that carry apiVersion (2.1). */
export const versionedEnvelope = 'envelope.schema.json#/$defs/versioned';

/** An answer's schema: the envelope (by its reference) around `data`. */
const enveloped = (title: string, envelope: string, data: object) => ({ title, type: 'object', allOf: [ref(envelope)], properties: { data } });

export const operations = [
  {
    name: 'createCheckout',
    method: 'POST',
    path: '/checkouts',
    ofReference: true,
    request: 'checkout-request.schema.json',
    answer: enveloped('CheckoutResponse', versionedEnvelope, ref('checkout.schema.json')),
  },
  {
    name: 'listMethods',
    method: 'GET',
    path: '/customers/{uuid}/paymentMethods',
    ofReference: true,
    request: null,
    answer: enveloped('StoredPaymentMethodsResponse', versionedEnvelope, {
      type: 'array',
      items: ref('stored-payment-method.schema.json'),
      'x-clauses': ['PML-1'],
    }),
  },
  { name: 'createReference', method: 'POST', path: '/payments/references', ofReference: true, request: 'reference-request.schema.json', answer: null },
  {
    name: 'getPayment',
    method: 'GET',
    path: '/payments/{id}',
    ofReference: true,
    request: null,
    answer: enveloped('PaymentResponse', 'envelope.schema.json', ref('payment.schema.json')),
  },
  {
    name: 'registerCustomer',
    method: 'POST',
    path: '/test-helpers/customers',
    ofReference: false,
    request: testHelperSchema('registerCustomerRequest'),
    answer: testHelperSchema('registerCustomerAnswer'),
  },
  {
    name: 'payCheckout',
    method: 'POST',
    path: '/test-helpers/checkouts/{checkoutId}/pay',
    ofReference: false,
    request: testHelperSchema('payRequest'),
    answer: testHelperSchema('payAnswer'),
  },
  {
    name: 'confirmPayment',
    method: 'POST',
    path: '/test-helpers/payments/{paymentId}/confirm',
    ofReference: false,
    request: testHelperSchema('confirmRequest'),
    answer: testHelperSchema('confirmAnswer'),
  },
  { name: 'setWebhook', method: 'PUT', path: '/test-helpers/webhook', ofReference: false, request: testHelperSchema('webhookRequest'), answer: null },
  { name: 'removeWebhook', method: 'DELETE', path: '/test-helpers/webhook', ofReference: false, request: null, answer: null },
  // The sandbox's own, not in the contract: the webhook it holds, and the notification attempts it made.
  { name: 'getWebhook', method: 'GET', path: '/test-helpers/webhook', ofReference: false, request: null, answer: null },
  { name: 'listNotifications', method: 'GET', path: '/test-helpers/notifications', ofReference: false, request: null, answer: null },
] as const satisfies readonly Operation[];

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

type HasParam<Name extends OperationName> = Extract<(typeof operations)[number], { name: Name }>['path'] extends `${string}{${string}` ? true : false;

/** What a call of an operation carries: its path parameter where its path has one, its body typed as its schema, a query. */
export type CallOptions<Name extends OperationName> = {
  body?: Name extends keyof RequestBodies ? RequestBodies[Name] : never;
  query?: Record<string, string>;
} & (HasParam<Name> extends true ? { param: string } : { param?: never });

/** The options of a call, required where its path has a parameter. */
export type CallArguments<Name extends OperationName, Extra = object> =
  HasParam<Name> extends true ? [options: CallOptions<Name> & Extra] : [options?: CallOptions<Name> & Extra];

/** The method and path (the query included) a call of the operation sends. */
export function requestOf(
  name: OperationName,
  { param, query }: { param?: string; query?: Record<string, string> } = {},
): { method: Operation['method']; path: string } {
  const search = query === undefined ? '' : `?${new URLSearchParams(query)}`;
  return { method: operationNamed(name).method, path: `${pathOf(name, param)}${search}` };
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
