/**
 * The clause index as data (written by npm run generate from scripts/clause-index.ts, packed with the
 * schemas): what proves each clause. The HTML report shows it under each clause.
 */
import { existsSync, readFileSync } from 'node:fs';
import { packageRoot } from '../core/package-root.ts';

export interface ClauseIndexEntry {
  id: string;
  checks: string[];
  /** "file#pointer (keywords)". */
  schemaKeywords: string[];
  /** "specs/file: describe › title". */
  tests: string[];
  inputClasses: string[];
  /** The model's judge functions (src/model/judge.ts) that can fail it. */
  modelRules: string[];
  /** Whether observe judges (or records) it in real traffic. */
  observe: boolean;
  /** The mutants killed on it, and those whose fault breaks it too. */
  mutants: string[];
  alsoBrokenBy: string[];
  /** Benign variants that take its freedom (INFO clauses). */
  benignVariants: string[];
  /** Where each check, model rule and candidate named above is defined: "file:line", by name. */
  sites: Record<string, string>;
}

export const clauseIndexJson = 'schemas/generated/clause-index.json';

let index: Map<string, ClauseIndexEntry> | undefined;

/** The index by clause; empty where the file is not there (a build without it). */
export function loadClauseIndex(): Map<string, ClauseIndexEntry> {
  const file = new URL(clauseIndexJson, packageRoot);
  index ??= existsSync(file) ? new Map((JSON.parse(readFileSync(file, 'utf8')) as ClauseIndexEntry[]).map((entry) => [entry.id, entry])) : new Map();
  return index;
}
