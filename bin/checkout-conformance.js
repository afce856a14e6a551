#!/usr/bin/env node
// Runs the TypeScript command line through tsx, without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
try {
  const exitCode = await main(process.argv.slice(2));
  if (exitCode !== null) process.exit(exitCode);
} catch (error) {
  console.error(`checkout-conformance: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
