import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clauses } from '../../src/core/clauses.ts';
import type { RawTest } from '../../src/report/raw-results.ts';
import { buildReport, runReplay } from '../../src/report/report.ts';
import { writeReport } from '../../src/report/write.ts';
import { attest, signatureFile, verifyReport, type AttestedReport } from '../../src/report/attestation.ts';
import { cli, packageRoot, tempDir } from '../support/cli.ts';
import { exampleContext } from '../support/run-context.ts';

const failed: RawTest = {
  title: 'checks CHK-5',
  file: 'specs/checkouts.spec.ts',
  clauseIds: ['CHK-5'],
  problems: [{ clause: 'CHK-5', message: 'no checkoutUrl' }],
  judged: true,
  status: 'failed',
  reason: 'no checkoutUrl',
  evidence: [],
  observations: [],
  property: null,
  durationMs: 5,
};

const keyPair = () => generateKeyPairSync('ed25519');
const pem = (key: KeyObject) => key.export({ type: key.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }) as string;

/** A report folder as a run leaves it (its evidence beside the four files, one in a subfolder), signed with privateKey. */
function signedReport(t: { after(fn: () => void): void }, privateKey: KeyObject): string {
  const dir = tempDir(t, 'attested-');
  writeFileSync(join(dir, 'raw-results.json'), '{ "tests": [] }\n');
  writeFileSync(join(dir, 'run-config.json'), '{ "seed": 42, "profile": { "name": "example", "headers": {} } }\n');
  mkdirSync(join(dir, 'blob-report'));
  writeFileSync(join(dir, 'blob-report', 'report-1.zip'), 'PK…');
  const report = buildReport(clauses(), { status: 'passed', errors: [], tests: [failed] }, exampleContext());
  writeReport(dir, report, [], privateKey);
  return dir;
}

/** Changes one byte of a file, checks what verify says, and puts it back. */
function withOneByteChanged(dir: string, path: string, check: () => void): void {
  const file = join(dir, path);
  const original = readFileSync(file);
  const changed = Buffer.from(original);
  changed[Math.floor(changed.length / 2)] ^= 1;
  writeFileSync(file, changed);
  try {
    check();
  } finally {
    writeFileSync(file, original);
  }
}

test('report.json attests the suite, the replay and every other file of its folder', (t) => {
  const dir = signedReport(t, keyPair().privateKey);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as AttestedReport;
  const { suite, replay, files } = report.attestation;
  assert.match(suite.digest, /^sha256:[0-9a-f]{64}$/);
  assert.ok(suite.files > 30, `${suite.files} suite files`);
  assert.equal(replay, 'npx checkout-conformance run --base-url https://target.example/api --allow-partial --seed 42');
  assert.deepEqual(Object.keys(files).sort(), ['blob-report/report-1.zip', 'junit.xml', 'raw-results.json', 'report.html', 'run-config.json', 'summary.md']);
  for (const digest of Object.values(files)) assert.match(digest, /^sha256:[0-9a-f]{64}$/);
});

test("the suite's digest is of the specs this installation runs: another spec folder, another digest", (t) => {
  const report = buildReport(clauses(), null, exampleContext());
  const dir = tempDir(t, 'attest-');
  const own = attest(dir, report).suite;
  const specs = tempDir(t, 'other-specs-');
  writeFileSync(join(specs, 'one.spec.ts'), '// one spec\n');
  process.env.CHECKOUT_CONFORMANCE_SPECS = specs;
  try {
    assert.notEqual(attest(dir, report).suite.digest, own.digest);
  } finally {
    delete process.env.CHECKOUT_CONFORMANCE_SPECS;
  }
  assert.deepEqual(attest(dir, report).suite, own);
});

test('the replay of the whole run names its target, settings and seed', () => {
  const report = buildReport(clauses(), null, exampleContext({ targetKind: 'prism', allowPartial: true, strict: true, runs: 5, grep: 'CHK', shard: '1/2' }));
  assert.equal(runReplay(report), 'npx checkout-conformance run --target prism --strict --seed 42 --runs 5 --grep CHK --shard 1/2');
});

test('verify accepts a signed report, and refuses it after a byte of report.json or of any file it attests changed, naming the file', (t) => {
  const { privateKey, publicKey } = keyPair();
  const dir = signedReport(t, privateKey);
  const valid = verifyReport(dir, publicKey);
  assert.deepEqual(valid.problems, []);
  assert.equal(valid.report?.seed, 42);
  withOneByteChanged(dir, 'report.json', () =>
    assert.deepEqual(verifyReport(dir, publicKey).problems, [`report.json changed since it was signed: ${signatureFile} does not match it`]),
  );
  for (const path of Object.keys(valid.report!.attestation.files)) {
    withOneByteChanged(dir, path, () => assert.deepEqual(verifyReport(dir, publicKey).problems, [`${path} changed since the report was signed`]));
  }
  rmSync(join(dir, 'raw-results.json'));
  assert.deepEqual(verifyReport(dir, publicKey).problems, ['raw-results.json is missing']);
});

test('verify refuses a report without its signature, or with the public key of another pair', (t) => {
  const { privateKey, publicKey } = keyPair();
  const dir = signedReport(t, privateKey);
  assert.match(
    verifyReport(dir, keyPair().publicKey).problems[0],
    /^report\.json\.sig was made with another key \(sha256:\w+\), not the pair of the public key given/,
  );
  rmSync(join(dir, signatureFile));
  assert.deepEqual(verifyReport(dir, publicKey).problems, [`${signatureFile} is missing: the report is not signed (run --sign KEY signs it)`]);
});

test('checkout-conformance verify: 0 and what it vouches for; 1 naming the changed file; 2 for a missing folder or an unreadable key', async (t) => {
  const { privateKey, publicKey } = keyPair();
  const dir = signedReport(t, privateKey);
  const keys = tempDir(t, 'keys-');
  const publicKeyFile = join(keys, 'public.pem');
  writeFileSync(publicKeyFile, pem(publicKey));

  const valid = await cli(['verify', dir, '--public-key', publicKeyFile]);
  assert.equal(valid.code, 0, valid.stdout + valid.stderr);
  assert.match(valid.stdout, /valid: report\.json and the 6 files it attests are as they were signed/);
  assert.match(valid.stdout, /suite {4}checkout-conformance \S+ \(sha256:[0-9a-f]{64} over \d+ files/);
  assert.match(valid.stdout, /target {3}https:\/\/target\.example\/api \(url, profile example\)/);
  assert.match(valid.stdout, /seed {5}42: npx checkout-conformance run .*--seed 42/);
  assert.match(valid.stdout, /time {5}2025-01-01T00:00:00\.000Z to 2025-01-01T00:01:00\.000Z/);

  writeFileSync(join(dir, 'junit.xml'), `${readFileSync(join(dir, 'junit.xml'), 'utf8')} `);
  const changed = await cli(['verify', dir, '--public-key', publicKeyFile]);
  assert.equal(changed.code, 1);
  assert.match(changed.stdout, /invalid: junit\.xml changed since the report was signed/);

  const missingDir = await cli(['verify', join(dir, 'nowhere'), '--public-key', publicKeyFile]);
  assert.equal(missingDir.code, 2);
  assert.equal(missingDir.stderr, `checkout-conformance: ${join(dir, 'nowhere')} is no folder (see --help)\n`);
  const noKey = await cli(['verify', dir, '--public-key', join(keys, 'none.pem')]);
  assert.equal(noKey.code, 2);
  assert.equal(noKey.stderr, `checkout-conformance: --public-key ${join(keys, 'none.pem')} cannot be read (ENOENT) (see --help)\n`);
  const help = await cli(['verify', '--help']);
  assert.match(help.stdout, /Usage: checkout-conformance verify DIR --public-key KEY/);
});

test('run --sign refuses a key it cannot use before the run starts, in one line', async (t) => {
  const keys = tempDir(t, 'keys-');
  const rsa = join(keys, 'rsa.pem');
  writeFileSync(rsa, pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey));
  const result = await cli(['run', '--sign', rsa, '--out', join(keys, 'out')]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr, `checkout-conformance: --sign ${rsa} is an rsa key, not Ed25519 (see --help)\n`);
  assert.equal(result.stdout, '');
});

test('package carries the signature and the files it attests: the archive, unpacked, verifies', async (t) => {
  const { privateKey, publicKey } = keyPair();
  const dir = signedReport(t, privateKey);
  const archive = join(tempDir(t, 'archive-'), 'signed.tar.gz');
  const packaged = await cli(['package', dir, '--out', archive]);
  assert.equal(packaged.code, 0, packaged.stderr);
  const unpacked = tempDir(t, 'unpacked-');
  execFileSync('tar', ['-xzf', archive, '-C', unpacked], { cwd: packageRoot });
  const verification = verifyReport(unpacked, publicKey);
  assert.deepEqual(verification.problems, []);
  assert.deepEqual(verification.unattested, ['metadata.json']);
});
