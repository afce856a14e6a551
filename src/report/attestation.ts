/**
 * What lets a partner check a report offline. report.json's attestation names the suite that ran (a
 * digest of its own checks, specs and schemas, as this installation runs them), the command that
 * replays the run, and the digest of every other file of the report's folder; report.json.sig, an
 * Ed25519 signature of report.json's bytes, vouches for all of it.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/command-line.ts';
import { packageDir } from '../core/package-root.ts';
import { runReplay, type Report } from './report.ts';

export const signatureFile = 'report.json.sig';

export interface Attestation {
  /** sha256 over the suite's checks, specs and schemas that this installation runs, each file named. */
  suite: { digest: string; files: number };
  /** The command line that runs the whole run again, with its seed. */
  replay: string;
  /** Every other file of the report's folder (report.json and its signature aside), by path: its sha256. */
  files: Record<string, string>;
}

export type AttestedReport = Report & { attestation: Attestation };

/** The signature file: which key signed (a hint for the message; the signature itself decides), and the signature. */
interface Signature {
  algorithm: 'Ed25519';
  publicKey: string;
  signature: string;
}

const sha256 = (content: Buffer | string) => `sha256:${createHash('sha256').update(content).digest('hex')}`;

/** Where the suite's code runs from: the clone itself, or dist/ in a packed package. */
const codeDir = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The regular files under dir, by path relative to it with "/", sorted; none where dir does not exist.
 * A symbolic link is not followed: readdirSync's recursive walk went through a spec folder's link to
 * node_modules and hashed some 19,000 files of dependencies into the suite's digest, 10 s and more a run.
 */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const walk = (path: string): string[] =>
    readdirSync(join(dir, path), { withFileTypes: true }).flatMap((entry) => {
      const child = path ? `${path}/${entry.name}` : entry.name;
      return entry.isDirectory() ? walk(child) : entry.isFile() ? [child] : [];
    });
  return walk('').sort();
}

/** The files that decide what the suite checks: its checks, its harness, its specs (CHECKOUT_CONFORMANCE_SPECS where Playwright is given others) and its schemas. */
function suiteFiles(): string[] {
  const specsDir = resolve(codeDir, process.env.CHECKOUT_CONFORMANCE_SPECS ?? 'specs');
  const schemasDir = join(packageDir, 'schemas');
  const schemas = filesUnder(schemasDir)
    .filter((path) => (!path.includes('/') && path.endsWith('.json')) || path.startsWith('generated/'))
    .map((path) => join(schemasDir, path));
  const code = [join(codeDir, 'src', 'checks'), join(codeDir, 'src', 'harness'), specsDir, join(codeDir, 'schemas', 'generated')].flatMap((dir) =>
    filesUnder(dir).map((path) => join(dir, path)),
  );
  return [...new Set([...code, ...schemas])].sort();
}

/** One digest over a line per suite file, its digest and its path. */
function suiteOf(): Attestation['suite'] {
  const files = suiteFiles();
  return { digest: sha256(files.map((file) => `${sha256(readFileSync(file))}  ${relative(packageDir, file)}\n`).join('')), files: files.length };
}

const isReportItself = (path: string) => path === 'report.json' || path === signatureFile;

/** The digest of every file of the report's folder but report.json and its signature. */
function folderDigests(dir: string): Record<string, string> {
  return Object.fromEntries(
    filesUnder(dir)
      .filter((path) => !isReportItself(path))
      .map((path) => [path, sha256(readFileSync(join(dir, path)))]),
  );
}

/** The attestation of a report whose other files are written in dir. */
export function attest(dir: string, report: Report): Attestation {
  return { suite: suiteOf(), replay: runReplay(report), files: folderDigests(dir) };
}

const fingerprintOf = (key: KeyObject) => sha256((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }));

/** The signature file's text for report.json's bytes. */
export function signatureOf(reportJson: string | Buffer, privateKey: KeyObject): string {
  const signature: Signature = {
    algorithm: 'Ed25519',
    publicKey: fingerprintOf(privateKey),
    signature: sign(null, Buffer.from(reportJson), privateKey).toString('base64'),
  };
  return `${JSON.stringify(signature, null, 2)}\n`;
}

function readKey(option: string, path: string, kind: 'private' | 'public', parse: (pem: Buffer) => KeyObject): KeyObject {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (error) {
    throw new UsageError(`${option} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let key: KeyObject;
  try {
    key = parse(pem);
  } catch {
    throw new UsageError(`${option} ${path} is no ${kind} key in PEM`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new UsageError(`${option} ${path} is an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  return key;
}

export const readPrivateKey = (option: string, path: string) => readKey(option, path, 'private', (pem) => createPrivateKey(pem));
export const readPublicKey = (option: string, path: string) => readKey(option, path, 'public', (pem) => createPublicKey(pem));

export interface Verification {
  /** What was changed, missing or signed otherwise, each naming its file; none: the report is as it was signed. */
  problems: string[];
  /** The report that was signed; null where its signature does not hold. */
  report: AttestedReport | null;
  /** Files of the folder the signature does not cover (e.g. a package's metadata.json). */
  unattested: string[];
}

/** Checks, offline, that report.json in dir is signed by publicKey's pair and that every file it attests is as it was. */
export function verifyReport(dir: string, publicKey: KeyObject): Verification {
  const refused = (problem: string): Verification => ({ problems: [problem], report: null, unattested: [] });
  const signature = readSignature(dir);
  if (typeof signature === 'string') return refused(signature);
  const reportJson = readFileSync(join(dir, 'report.json'));
  if (!verify(null, reportJson, publicKey, Buffer.from(signature.signature, 'base64'))) {
    return refused(
      signature.publicKey === fingerprintOf(publicKey)
        ? `report.json changed since it was signed: ${signatureFile} does not match it`
        : `${signatureFile} was made with another key (${signature.publicKey}), not the pair of the public key given (${fingerprintOf(publicKey)})`,
    );
  }
  const report = JSON.parse(reportJson.toString('utf8')) as AttestedReport;
  if (!report.attestation) return { ...refused('report.json has no attestation: it was written by an older checkout-conformance'), report };
  const found = folderDigests(dir);
  const problems = Object.entries(report.attestation.files).flatMap(([path, digest]) =>
    !(path in found) ? [`${path} is missing`] : found[path] !== digest ? [`${path} changed since the report was signed`] : [],
  );
  return { problems, report, unattested: Object.keys(found).filter((path) => !(path in report.attestation.files)) };
}

/** The signature file, or why there is none to check. */
function readSignature(dir: string): Signature | string {
  const file = join(dir, signatureFile);
  if (!existsSync(file)) return `${signatureFile} is missing: the report is not signed (run --sign KEY signs it)`;
  let signature: Partial<Signature> | null;
  try {
    signature = JSON.parse(readFileSync(file, 'utf8')) as Partial<Signature> | null;
  } catch {
    signature = null;
  }
  return typeof signature?.signature === 'string' && typeof signature.publicKey === 'string'
    ? (signature as Signature)
    : `${signatureFile} is not a signature of checkout-conformance`;
}
