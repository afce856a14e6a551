import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { cli, packageRoot } from '../support/cli.ts';

const packageJson = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(packageRoot, 'package-lock.json'), 'utf8'));

test('engines claims no Node that a locked dependency refuses, so npm install warns of none', () => {
  const claimed = packageJson.engines.node as string;
  const lowestOfEachMajor = semver
    .validRange(claimed)!
    .split('||')
    .map((range) => semver.minVersion(range)!.version);
  assert.deepEqual(lowestOfEachMajor, ['22.17.0', '24.0.0']);
  const refusing = Object.entries<{ engines?: { node?: string } }>(lock.packages)
    .filter(([path, entry]) => path && entry.engines?.node)
    .flatMap(([path, entry]) =>
      lowestOfEachMajor
        .filter((version) => !semver.satisfies(version, entry.engines!.node!))
        .map((version) => `${path} (${entry.engines!.node}) refuses ${version}`),
    );
  assert.deepEqual(refusing, []);
});

/** A Node older than the engines range, where this machine has one (CI's machine ships Node 20). */
const unsupportedNode = ['/usr/bin/node', '/usr/local/bin/node', '/bin/node'].find(
  (path) => existsSync(path) && !semver.satisfies(execFileSync(path, ['--version'], { encoding: 'utf8' }).trim(), packageJson.engines.node),
);

test(
  'on a Node without node:sqlite the command line says so in one line, with the fix, and exits 2',
  { skip: unsupportedNode ? false : 'no Node older than the engines range on this machine' },
  async () => {
    const result = await cli(['run'], { execPath: unsupportedNode });
    assert.equal(result.code, 2);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0], /Node\.js \d+\.\d+\.\d+ is not supported: use Node\.js 24 \(or 22\.17 and later\)/);
  },
);
