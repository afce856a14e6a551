/** The clauses at a glance: one row per family, the prefix of a clause's ID (CHK-5 is of CHK), in catalogue order. */
import type { ClauseStatus } from './report.ts';

export interface Family<T> {
  name: string;
  clauses: T[];
}

export const familyOf = (id: string): string => id.slice(0, id.lastIndexOf('-'));

export function clauseFamilies<T extends { id: string }>(clauses: readonly T[]): Family<T>[] {
  const families = new Map<string, T[]>();
  for (const clause of clauses) families.set(familyOf(clause.id), [...(families.get(familyOf(clause.id)) ?? []), clause]);
  return [...families].map(([name, members]) => ({ name, clauses: members }));
}

/** Every status a clause can have, in the order a legend lists them. */
export const gridStatuses: readonly ClauseStatus[] = ['passed', 'failed', 'warning', 'waived', 'skipped', 'untested', 'observed'];

/** The symbol beside a clause in a pull-request comment, where a colour cannot be set. */
export const statusSymbol: Record<ClauseStatus, string> = {
  passed: '✅',
  failed: '❌',
  warning: '⚠️',
  waived: '🏳️',
  skipped: '⏭️',
  untested: '❔',
  observed: '👁️',
};
