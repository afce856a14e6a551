#!/usr/bin/env node
// In a clone the TypeScript command line runs through tsx, without a build step; a packed package
// carries its JavaScript copy (dist/, made by "npm run build" at pack time) and no TypeScript.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { isSupportedNode, rerunOnSupportedNode } from './supported-node.js';

if (!isSupportedNode(process.versions.node)) {
  rerunOnSupportedNode();
} else {
  await runCommandLine();
}

async function runCommandLine() {
  // The bytecode of this process's modules (the command line, fastify, undici…) kept between runs, in
  // the folder Playwright's processes share (src/runner/playwright.ts): NODE_COMPILE_CACHE, else the
  // system's temporary folder; NODE_DISABLE_COMPILE_CACHE turns it off.
  module.enableCompileCache?.();
  // Node 22 flags node:sqlite as experimental and says so on every start; Node 24 does not.
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) =>
    String(warning).startsWith('SQLite is an experimental feature') ? undefined : emitWarning.call(process, warning, ...rest);

  const source = new URL('../src/cli.ts', import.meta.url);
  let main;
  if (existsSync(source)) {
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import(source.href));
  } else {
    ({ main } = await import('../dist/src/cli.js'));
  }
  try {
    const exitCode = await main(process.argv.slice(2));
    if (exitCode !== null) process.exit(exitCode);
  } catch (error) {
    console.error(`checkout-conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
