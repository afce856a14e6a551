import { validateResource, versionedEnvelope } from '../core/schemas.ts';
import { fromSchema, operationOf, show, type Exchange, type Problem } from './problem.ts';

/**
 * ENV-1 (and ENV-2 where the operation is versioned): the body of a successful answer is the
 * envelope of 2.1. The data inside is the concern of each section's own check.
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 * Not covered: the answer of POST /payments/references, whose body is not shown (REF-10).
 */
export function checkEnvelope(exchange: Exchange, context: { versioned: boolean }): Problem[] {
  const schema = context.versioned ? versionedEnvelope : 'envelope.schema.json';
  return fromSchema(validateResource(schema, exchange.response.body), `${operationOf(exchange.request)} response`, 'ENV-1');
}

/**
 * ENV-4: an operation is answered directly at the path the reference gives: not with 404 or 405 (not
 * served there), and not with a redirect to another path (a 30x to /v1/…, which a client that does
 * not follow it, or follows it without its body, never gets answered).
 *
 * Inputs: the scenario classes of its clauses (src/generators/classes.ts).
 */
export function checkServedAtPath(exchange: Exchange): Problem[] {
  const { status, headers } = exchange.response;
  const where = `${operationOf(exchange.request)}: expected the operation answered directly under {base_url}`;
  if (status === 404 || status === 405) return [{ clause: 'ENV-4', message: `${where}, got ${status}` }];
  if (status >= 300 && status < 400) return [{ clause: 'ENV-4', message: `${where}, got ${status} redirecting to ${show(headers.location ?? null)}` }];
  return [];
}
