import { validateResource } from '../schemas.ts';
import { fromSchema, operationOf, type Exchange, type Problem } from './problem.ts';

/**
 * ENV-1 (and ENV-2 where the operation is versioned): the body of a successful answer is the
 * envelope of 2.1. The data inside is the concern of each section's own check.
 *
 * Input space: POST /checkouts of the ATM-page row (ENV-1) and the embed row (ENV-2), versioned;
 * GET /payments/{id} of an unpaid reference without callbackUrl, unversioned; the stored-method list
 * of a registered customer with nothing stored (a fresh UUID without test helpers), versioned. The
 * envelopes of confirmed payments and non-empty lists are checkPayment's and checkStoredMethods'.
 * Not covered: the answer of POST /payments/references, whose body is not shown (REF-10).
 */
export function checkEnvelope(exchange: Exchange, context: { versioned: boolean }): Problem[] {
  const schema = context.versioned ? 'envelope.schema.json#/$defs/versioned' : 'envelope.schema.json';
  return fromSchema(validateResource(schema, exchange.response.body), `${operationOf(exchange.request)} response`, 'ENV-1');
}

/**
 * ENV-4: an operation that answers 404 or 405 is not served at the path the reference gives.
 *
 * Input space: one request of each operation: POST /checkouts (ATM-page row), POST
 * /payments/references without callbackUrl, GET /customers/{uuid}/paymentMethods of a registered
 * customer (or a fresh UUID), and GET /payments/{id} of that reference where its answer gave data.id.
 */
export function checkServedAtPath(exchange: Exchange): Problem[] {
  const { status } = exchange.response;
  if (status !== 404 && status !== 405) return [];
  return [{ clause: 'ENV-4', message: `${operationOf(exchange.request)}: expected the operation directly under {base_url}, got ${status}` }];
}
