import type { KeyObject } from 'node:crypto';
import { describeWaiver } from './baseline.ts';
import { exitCodeOf, type Report } from './report.ts';
import { writeReport } from './write.ts';
import { signatureFile } from './attestation.ts';
import { say } from '../core/command-line.ts';

/** Writes the four files (report.json signed with signingKey, where given), prints the outcome and resolves to the exit code. */
export function publishReport(outDir: string, report: Report, secrets: readonly string[], signingKey: KeyObject | null = null): 0 | 1 | 2 {
  const htmlPath = writeReport(outDir, report, secrets, signingKey);
  const counts = Object.entries(report.summary)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');
  say(`${report.verdict}: ${counts}`);
  if (report.reason) say(report.reason);
  for (const clause of report.clauses) if (clause.waiver) say(`waiver ${describeWaiver(clause.waiver)}`);
  for (const waiver of report.unusedWaivers) say(`unused waiver ${describeWaiver(waiver)}: it matched no failure`);
  if (signingKey) say(`signed report.json and the files it attests: ${signatureFile}`);
  say(`report ${htmlPath}; ${report.coverage.statement.split('; not verified: ')[0]}`);
  return exitCodeOf(report.verdict);
}
