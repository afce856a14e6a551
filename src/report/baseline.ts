/**
 * --baseline: waivers of known failures. A clause that failed (or warned) and has a waiver that has
 * not expired is "waived": it shows in the report but does not make the run non-conformant.
 */
import type { Clause } from '../core/clauses.ts';
import { jsonFileReader } from '../core/json-file.ts';

export class BaselineError extends Error {}

export interface Waiver {
  clause: string;
  reason: string;
  /** The last day (UTC, YYYY-MM-DD) the waiver applies. */
  expires: string;
}

export interface ClauseWaiver extends Waiver {
  /** The waiver matched a failure but had expired, so the failure counts. */
  expired: boolean;
}

export const baselineSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['clause', 'reason', 'expires'],
    additionalProperties: false,
    properties: {
      clause: { type: 'string', pattern: '^[A-Z]+-[0-9]+$' },
      reason: { type: 'string', minLength: 1 },
      expires: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
    },
  },
};

const readBaseline = jsonFileReader<Waiver[]>('baseline', baselineSchema, BaselineError);

export function loadBaseline(file: string, catalogue: readonly Clause[]): Waiver[] {
  const waivers = readBaseline(file);
  const seen = new Set<string>();
  waivers.forEach((waiver, index) => {
    const where = `baseline ${file}: /${index}`;
    if (!catalogue.some((clause) => clause.id === waiver.clause)) throw new BaselineError(`${where} names no clause of the catalogue: ${waiver.clause}`);
    if (seen.has(waiver.clause)) throw new BaselineError(`${where} waives ${waiver.clause} a second time`);
    if (!isCalendarDay(waiver.expires)) {
      throw new BaselineError(`${where}/expires is not a date: ${waiver.expires}`);
    }
    seen.add(waiver.clause);
  });
  return waivers;
}

function isCalendarDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** A clause's status once its waiver (if any) is applied on the given day (YYYY-MM-DD). */
export function waive<Status extends string>(
  status: Status,
  waiver: Waiver | undefined,
  day: string,
): { status: Status | 'waived'; waiver: ClauseWaiver | null } {
  if (!waiver || (status !== 'failed' && status !== 'warning')) return { status, waiver: null };
  const expired = day > waiver.expires;
  return { status: expired ? status : 'waived', waiver: { ...waiver, expired } };
}

/** One line on a waiver, for the console, summary.md and report.html. */
export function describeWaiver(waiver: Waiver & { expired?: boolean }): string {
  return `${waiver.clause}: ${waiver.reason} (${waiver.expired ? 'expired' : 'expires'} ${waiver.expires})`;
}
