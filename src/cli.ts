/** The command line: "checkout-conformance run|observe|diff|merge|package|verify|sandbox". Usage errors are one line and exit 2. */
import { readFileSync } from 'node:fs';
import { observeCommand, observeUsage } from './observe/command.ts';
import { packageRoot } from './core/package-root.ts';
import { BaselineError } from './report/baseline.ts';
import { diffCommand, diffUsage } from './runner/diff.ts';
import { mergeCommand, mergeUsage } from './runner/merge.ts';
import { parseRunOptions, runUsage } from './runner/options.ts';
import { packageCommand, packageUsage } from './runner/package.ts';
import { runConformance } from './runner/run.ts';
import { verifyCommand, verifyUsage } from './runner/verify.ts';
import { UsageError } from './core/command-line.ts';

const { version } = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8')) as { version: string };

const usage = `Usage: checkout-conformance <command> [options]

Commands
  run [options]        check a target against every clause and write the report (run --help)
  observe --upstream URL  a proxy that judges the traffic through it by clause (observe --help)
  diff OLD NEW         the clauses that regressed or recovered between two reports (diff --help)
  merge DIR...         join the reports of a sharded run into one (merge --help)
  package DIR          one archive of a report, to send to a partner (package --help)
  verify DIR --public-key KEY  check offline that a signed report is unchanged (verify --help)
  sandbox [options]    start the reference sandbox alone (sandbox --help)

  --help, --version

${runUsage}`;

/** Resolves to the exit code, or to null for a command that keeps running (the sandbox). */
export async function main(args: string[]): Promise<number | null> {
  const [command, ...rest] = args;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      console.log(usage);
      return 0;
    }
    if (command === '--version' || command === '-v') {
      console.log(version);
      return 0;
    }
    const helpOf = new Map([
      ['run', runUsage],
      ['observe', observeUsage],
      ['diff', diffUsage],
      ['merge', mergeUsage],
      ['package', packageUsage],
      ['verify', verifyUsage],
    ]).get(command);
    if (helpOf && (rest.includes('--help') || rest.includes('-h'))) {
      console.log(helpOf);
      return 0;
    }
    if (command === 'run') return await runConformance(parseRunOptions(rest));
    if (command === 'observe') return await observeCommand(rest);
    if (command === 'diff') return diffCommand(rest);
    if (command === 'merge') return await mergeCommand(rest);
    if (command === 'package') return packageCommand(rest);
    if (command === 'verify') return verifyCommand(rest);
    if (command === 'sandbox') {
      const { sandboxCommand } = await import('./sandbox/command.ts');
      await sandboxCommand(rest);
      return null;
    }
    throw new UsageError(`unknown command "${command}" (expected run, observe, diff, merge, package, verify or sandbox)`);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof BaselineError)) throw error;
    console.error(`checkout-conformance: ${error.message} (see --help)`);
    return 2;
  }
}
