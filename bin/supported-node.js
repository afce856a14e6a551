/**
 * The reference sandbox keeps its state in node:sqlite, built into Node.js 24 and 22.17 and later. Many
 * Linux distributions package Node.js 20: there the command line runs itself again on a Node.js 24 from the
 * npm registry (the node-<os>-<cpu> package), installed once into a cache. Plain JavaScript: it runs
 * before tsx, on whatever Node started it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { constants as osConstants, homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const wantedMajor = 24;
/** The platforms for which the npm registry has a node-<os>-<cpu> package of Node.js 24. */
const registryPlatforms = ['linux-x64', 'linux-arm64', 'darwin-x64'];
/** CHECKOUT_CONFORMANCE_NODE=system: use this machine's Node or refuse, never fetch one. */
const optOut = 'system';
const forwardedSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** Read as the module loads, as src/core/parent-watch.ts does: read later, it could already be init's. */
const startedBy = process.ppid;

/** Whether package.json "engines" takes this Node: 24 and later, or 22.17 and later in 22. */
export function isSupportedNode(version) {
  const [major, minor] = version.split('.').map(Number);
  return major >= 24 || (major === 22 && minor >= 17);
}

/** The npm package holding a Node.js 24 binary for this platform, or null where there is none. */
export function registryPackage(platform, arch) {
  return registryPlatforms.includes(`${platform}-${arch}`) ? `node-${platform}-${arch}` : null;
}

/** Runs this process's command line again on a Node.js 24, forwarding signals, and exits as it exits. */
export function rerunOnSupportedNode() {
  const node = supportedNode();
  console.error(`checkout-conformance: running on Node.js ${node.version} (${node.path}) instead of this machine's Node.js ${process.versions.node}`);
  const child = spawn(node.path, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', detached: true });
  // In its own process group the child gets a terminal's Ctrl-C once, from here, not twice.
  const forward = (signal) => child.kill(signal);
  for (const signal of forwardedSignals) process.on(signal, forward);
  leaveWithParent();
  child.once('error', (error) => refuse(`Node.js ${node.version} (${node.path}) could not be started: ${error.message}`));
  child.once('exit', (code, signal) => {
    for (const forwarded of forwardedSignals) process.off(forwarded, forward);
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 128 + osConstants.signals[signal]);
  });
}

/**
 * Through npx, a SIGTERM ends npm's shell, not this process. Leaving with that parent shows the command
 * line its own parent gone, on which the long-running commands stop (src/core/parent-watch.ts).
 */
function leaveWithParent() {
  const timer = setInterval(() => {
    if (process.ppid !== startedBy) process.exit(0);
  }, 500);
  timer.unref();
}

/** The cached Node.js 24, installed first if it is not there yet; refuses where it cannot be had. */
function supportedNode() {
  const unsupported = `Node.js ${process.versions.node} is not supported (the reference sandbox needs node:sqlite)`;
  const fix = `install Node.js ${wantedMajor} (or 22.17 and later) and run again`;
  if (process.env.CHECKOUT_CONFORMANCE_NODE === optOut) {
    refuse(`${unsupported} (CHECKOUT_CONFORMANCE_NODE=${optOut}: none is fetched from the npm registry): ${fix}`);
  }
  const name = registryPackage(process.platform, process.arch);
  if (!name) refuse(`${unsupported}, and the npm registry has no Node.js ${wantedMajor} for ${process.platform}-${process.arch}: ${fix}`);
  const home = join(cacheDir(), `node-${wantedMajor}`);
  const installed = join(home, 'node_modules', name);
  if (!existsSync(join(installed, 'bin/node'))) {
    console.error(`checkout-conformance: ${unsupported}: installing ${name}@${wantedMajor} from the npm registry into ${home}, once`);
    try {
      install(name, home);
    } catch (error) {
      refuse(`${unsupported}, and ${error.message}: ${fix}`);
    }
  }
  return { path: join(installed, 'bin/node'), version: JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version };
}

/**
 * Installs the package into a folder of its own beside home, tries its binary, then renames the
 * folder to home: a run started meanwhile never finds half a Node, and two installing at once both end.
 */
function install(name, home) {
  const staging = `${home}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    npm(['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', `${name}@${wantedMajor}`]);
    const binary = join(staging, 'node_modules', name, 'bin/node');
    const tried = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    if (tried.status !== 0) {
      const linuxNeeds = process.platform === 'linux' ? `; Node.js ${wantedMajor} for Linux needs glibc 2.28 or later` : '';
      throw new Error(`${binary} does not start on this machine (${tried.error?.message ?? tried.stderr.trim()}${linuxNeeds})`);
    }
    renameSync(staging, home);
  } catch (error) {
    if (!existsSync(home)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Runs npm, quietly; a failure says npm's first line about its cause. */
function npm(args) {
  const result = spawnSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status === 0) return;
  const cause = result.stderr?.split('\n').find((line) => /^npm error (?!code |syscall |errno )\S/.test(line));
  throw new Error(`npm ${args[0]} ${args.at(-1)} failed (${result.error?.message ?? cause?.slice('npm error '.length) ?? `exit ${result.status}`})`);
}

/** node_modules/.cache beside the package (a clone's own, or the project's it is installed in), else the user's cache. */
function cacheDir() {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const nodeModules = basename(dirname(packageDir)) === 'node_modules' ? dirname(packageDir) : join(packageDir, 'node_modules');
  const userCache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const candidates = [join(nodeModules, '.cache'), userCache].map((dir) => join(dir, 'checkout-conformance'));
  const writable = candidates.find(isWritableDir);
  if (!writable) refuse(`none of ${candidates.join(', ')} can be written to: set XDG_CACHE_HOME to a folder that can`);
  return writable;
}

function isWritableDir(dir) {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function refuse(message) {
  console.error(`checkout-conformance: ${message}`);
  process.exit(2);
}
