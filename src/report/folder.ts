/** Where a command writes its report, and the run's ledger in it: light, so that a run knows both before it loads the report's modules. */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder a report goes to: the one given, else reports/<timestamp><suffix>. */
export function reportDir(given: string | null | undefined, at: Date, suffix = ''): string {
  return resolve(given ?? join('reports', `${at.toISOString().replace(/[:.]/g, '-')}${suffix}`));
}

/** The run's ledger (src/harness/ledger.ts): what its tests created, read and received, for the final audit. */
export const ledgerFile = (dir: string) => join(dir, 'ledger.jsonl');

/** What the run sent, every request of every test (src/harness/ledger.ts): the input coverage's evidence. */
export const sentFile = (dir: string) => join(dir, 'sent.jsonl');

/** A run starts its ledger and its record of what it sent afresh, before any worker writes to them. */
export function clearLedger(dir: string): void {
  rmSync(ledgerFile(dir), { force: true });
  rmSync(sentFile(dir), { force: true });
}
