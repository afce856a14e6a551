/** Where a command writes its report, and the run's ledger in it: light, so that a run knows both before it loads the report's modules. */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder a report goes to: the one given, else reports/<timestamp><suffix>. */
export function reportDir(given: string | null | undefined, at: Date, suffix = ''): string {
  return resolve(given ?? join('reports', `${at.toISOString().replace(/[:.]/g, '-')}${suffix}`));
}

/** The run's ledger (src/harness/ledger.ts): what its tests created, read and received, for the final audit. */
export const ledgerFile = (dir: string) => join(dir, 'ledger.jsonl');

/** A run starts its ledger afresh, before any worker writes to it. */
export const clearLedger = (dir: string) => rmSync(ledgerFile(dir), { force: true });
