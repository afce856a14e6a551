import { clauseIds, type ClauseId } from '../../schemas/generated/clause-ids.ts';
import { readFileSync } from 'node:fs';
import { packageRoot } from './package-root.ts';

export type ClauseLevel = 'MUST' | 'SHOULD' | 'INFO';

export interface Clause {
  id: string;
  level: ClauseLevel;
  section: string;
  statement: string;
}

/** Reads the clause tables of docs/spec/clauses.md, in catalogue order. */
export function parseClauseCatalogue(markdown: string): Clause[] {
  const clauses: Clause[] = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) section = heading[1].trim();
    const row = /^\| ([A-Z]+-[0-9]+) \| (MUST|SHOULD|INFO) \| (.+) \|$/.exec(line);
    if (row) clauses.push({ id: row[1], level: row[2] as ClauseLevel, section, statement: row[3].trim() });
  }
  return clauses;
}

let catalogue: Clause[] | undefined;

/** The clause catalogue as generated into schemas/generated/clauses.json. */
export function clauses(): Clause[] {
  catalogue ??= JSON.parse(readFileSync(new URL('schemas/generated/clauses.json', packageRoot), 'utf8')) as Clause[];
  return catalogue;
}

/** The clause ID a text names, where it names one of the catalogue. */
export const asClauseId = (text: string): ClauseId | null => ((clauseIds as readonly string[]).includes(text) ? (text as ClauseId) : null);

export function clause(id: string): Clause {
  const found = clauses().find((c) => c.id === id);
  if (!found) throw new Error(`unknown clause ${id}`);
  return found;
}
