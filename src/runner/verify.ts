/**
 * "checkout-conformance verify DIR --public-key KEY": checks offline that a signed report is as it
 * was signed (report.json, and every file its attestation names) and says what it vouches for.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readPublicKey, verifyReport, type AttestedReport } from '../report/attestation.ts';
import { parseCommandArgs, say, UsageError } from '../core/command-line.ts';

export const verifyUsage = `Usage: checkout-conformance verify DIR --public-key KEY

Checks offline that the report in DIR (a folder, or a package unpacked) is as run --sign signed it:
report.json, its signature report.json.sig and every file report.json attests, byte for byte.
  --public-key KEY    the Ed25519 public key (PEM) of the key pair that signed it

Exit status: 0 valid, 1 a file changed or missing, or the signature is not of this key, 2 usage.`;

export function verifyCommand(args: string[]): 0 | 1 {
  const { values, positionals } = parseCommandArgs(args, { 'public-key': { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('verify needs one report folder: DIR');
  if (values['public-key'] === undefined) throw new UsageError('verify needs --public-key KEY');
  const dir = positionals[0];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is no folder`);
  if (!existsSync(join(dir, 'report.json'))) throw new UsageError(`${dir} has no report.json: is it a report folder?`);
  const { problems, report, unattested } = verifyReport(dir, readPublicKey('--public-key', values['public-key']));
  for (const problem of problems) say(`invalid: ${problem}`);
  if (problems.length > 0 || !report) return 1;
  say(`valid: report.json and the ${Object.keys(report.attestation.files).length} files it attests are as they were signed`);
  for (const line of vouchedFor(report)) console.log(`  ${line}`);
  if (unattested.length > 0) say(`not covered by the signature: ${unattested.join(', ')}`);
  return 0;
}

function vouchedFor({ suite, attestation, target, seed, startedAt, finishedAt, verdict }: AttestedReport): string[] {
  return [
    `suite    ${suite.name} ${suite.version} (${attestation.suite.digest} over ${attestation.suite.files} files of checks, specs and schemas)`,
    `target   ${target.baseUrl} (${target.kind}, profile ${target.profile})`,
    `seed     ${seed}: ${attestation.replay}`,
    `time     ${startedAt} to ${finishedAt}`,
    `verdict  ${verdict}`,
  ];
}
