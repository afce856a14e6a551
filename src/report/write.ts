/** Writes the four report files, every one of them masked; report.json last, attesting the others, and signed where a key is given. */
import type { KeyObject } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mask } from '../core/evidence.ts';
import type { Report } from './report.ts';
import { attest, signatureFile, signatureOf } from './attestation.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderSummary } from './summary.ts';

/** secrets: the run's header values (secretsOf), masked wherever they appear. Returns report.html's path. */
export function writeReport(dir: string, report: Report, secrets: readonly string[], signingKey: KeyObject | null = null): string {
  const masked = mask(report, secrets);
  mkdirSync(dir, { recursive: true });
  rmSync(join(dir, signatureFile), { force: true });
  writeFileSync(join(dir, 'junit.xml'), renderJunit(masked));
  writeFileSync(join(dir, 'summary.md'), renderSummary(masked));
  writeFileSync(join(dir, 'report.html'), renderHtml(masked));
  const reportJson = `${JSON.stringify({ ...masked, attestation: attest(dir, masked) }, null, 2)}\n`;
  writeFileSync(join(dir, 'report.json'), reportJson);
  if (signingKey) writeFileSync(join(dir, signatureFile), signatureOf(reportJson, signingKey));
  return join(dir, 'report.html');
}
