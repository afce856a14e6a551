import { validateResource } from '../schemas.ts';
import { fromSchema, operationOf, type Exchange, type Problem } from './problem.ts';

/**
 * ENV-1 (and ENV-2 where the operation is versioned): the body of a successful answer is the
 * envelope of 2.1. The data inside is the concern of each section's own check.
 */
export function checkEnvelope(exchange: Exchange, context: { versioned: boolean }): Problem[] {
  const schema = context.versioned ? 'envelope.schema.json#/$defs/versioned' : 'envelope.schema.json';
  return fromSchema(validateResource(schema, exchange.response.body), `${operationOf(exchange.request)} response`, 'ENV-1');
}

/** ENV-4: an operation that answers 404 or 405 is not served at the path the reference gives. */
export function checkServedAtPath(exchange: Exchange): Problem[] {
  const { status } = exchange.response;
  if (status !== 404 && status !== 405) return [];
  return [{ clause: 'ENV-4', message: `${operationOf(exchange.request)}: expected the operation directly under {base_url}, got ${status}` }];
}
