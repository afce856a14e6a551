/** A run signed with --sign verifies with the public key of the pair (the package of a signed report: test/unit/attestation.test.ts). */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, tempDir } from '../support/cli.ts';

test('run --sign: the report folder verifies with the public key of the pair, and says what it vouches for', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t, 'signed-run-');
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(join(dir, 'signing.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(dir, 'signing.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  const out = join(dir, 'report');
  const run = await cli(['run', '--grep', 'ENV-1', '--allow-partial', '--seed', '42', '--out', out, '--sign', join(dir, 'signing.pem')], {
    timeoutMs: 170_000,
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /signed report\.json and the files it attests: report\.json\.sig/);
  assert.ok(existsSync(join(out, 'report.json.sig')));
  const verified = await cli(['verify', out, '--public-key', join(dir, 'signing.pub.pem')]);
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /seed {5}42: npx checkout-conformance run --allow-partial --seed 42 --grep ENV-1\n/);
  assert.match(verified.stdout, /target {3}http:\/\/127\.0\.0\.1:\d+ \(sandbox, profile reference-sandbox\)/);
});
