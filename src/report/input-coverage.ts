/**
 * Input coverage, measured from the wire: the run's record of every request it sent (sent.jsonl,
 * src/harness/ledger.ts), each field's value put in the partitions of its type (src/core/partitions.ts),
 * against every partition of every field. Nothing is counted from a declaration of what a test sends.
 */
import { existsSync } from 'node:fs';
import { classifyValue, inputFields, valuesAt, type InputField } from '../core/partitions.ts';
import { operations, type OperationName } from '../core/operations.ts';
import { sentFile } from './folder.ts';
import { readJsonLines } from './raw-results.ts';

/** One request as the run sent it: its operation, path parameter and body (masked); rawBody where the body was no JSON value. */
export interface SentRequest {
  operation: OperationName;
  param?: string;
  body?: unknown;
  rawBody?: true;
}

export interface FieldCoverage {
  operation: OperationName;
  field: string;
  /** How many values sent fell in each partition of the field's type, those never sent at 0. */
  sent: Record<string, number>;
  /** Partitions not sent, each with why it is no obligation, or null where it is one. */
  notSent: { partition: string; why: string | null }[];
}

export interface InputCoverage {
  requests: number;
  partitions: number;
  /** Partitions sent at least once. */
  covered: number;
  /** Partitions that are obligations and were not sent. */
  missing: number;
  fields: FieldCoverage[];
}

/** Values a test helper refuses: the helpers are driven with what they take, not judged (they are no part of the reference). */
const refusedByHelpers = new Set([
  'null',
  'another JSON type',
  'breaks its pattern',
  'not an instant',
  'not a UUID',
  'not a URL',
  'empty',
  'another value',
  'a listed value in other letters',
]);

/** Why a partition the run did not send is no obligation; null: it is one. */
export function exemption(field: InputField, partition: string): string | null {
  const ofReference = operations.find((operation) => operation.name === field.operation)?.ofReference ?? true;
  if (ofReference) return null;
  if (refusedByHelpers.has(partition) || (partition === 'absent' && field.required)) return 'a test helper is driven with values it takes';
  return null;
}

export function readSent(dir: string): SentRequest[] {
  return existsSync(sentFile(dir)) ? readJsonLines<SentRequest>(sentFile(dir)) : [];
}

/** The input coverage of what was sent; null where nothing was. */
export function inputCoverageOf(sent: readonly SentRequest[]): InputCoverage | null {
  if (sent.length === 0) return null;
  const fields = inputFields().map((field): FieldCoverage => {
    const counts = Object.fromEntries(field.partitions.map((partition) => [partition, 0]));
    for (const request of sent) {
      if (request.operation !== field.operation || request.rawBody) continue;
      const values = field.field.startsWith('{') ? (request.param === undefined ? [] : [request.param]) : valuesAt(request.body, field.field);
      for (const value of values) for (const partition of classifyValue(field.schema, value)) if (partition in counts) counts[partition]++;
    }
    const notSent = field.partitions.filter((partition) => counts[partition] === 0).map((partition) => ({ partition, why: exemption(field, partition) }));
    return { operation: field.operation, field: field.field, sent: counts, notSent };
  });
  const partitions = fields.reduce((sum, field) => sum + Object.keys(field.sent).length, 0);
  const covered = fields.reduce((sum, field) => sum + Object.values(field.sent).filter((count) => count > 0).length, 0);
  const missing = fields.reduce((sum, field) => sum + field.notSent.filter(({ why }) => why === null).length, 0);
  return { requests: sent.length, partitions, covered, missing, fields };
}

/** "input coverage: 312 of 407 partitions sent, 61 obligations not met, over 5357 requests". */
export function describeInputCoverage(coverage: InputCoverage): string {
  return `input coverage: ${coverage.covered} of ${coverage.partitions} partitions of the request fields sent, ${coverage.missing} obligations not met, over ${coverage.requests} requests`;
}

/** The obligations not met, as "operation field: partition". */
export const missingObligations = (coverage: InputCoverage): string[] =>
  coverage.fields.flatMap((field) => field.notSent.filter(({ why }) => why === null).map(({ partition }) => `${field.operation} ${field.field}: ${partition}`));
