/** The command line: "checkout-conformance run|sandbox". Usage errors are one line and exit 2. */
import { readFileSync } from 'node:fs';
import { parseRunOptions, runUsage, UsageError } from './runner/options.ts';
import { runConformance } from './runner/run.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const usage = `Usage: checkout-conformance <command> [options]

Commands
  run [options]        check a target against every clause and write the report (run --help)
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
    if (command === 'run') {
      if (rest.includes('--help') || rest.includes('-h')) {
        console.log(runUsage);
        return 0;
      }
      return await runConformance(parseRunOptions(rest));
    }
    if (command === 'sandbox') {
      const { sandboxCommand } = await import('./sandbox/command.ts');
      await sandboxCommand(rest);
      return null;
    }
    throw new UsageError(`unknown command "${command}" (expected run or sandbox)`);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`checkout-conformance: ${error.message} (see --help)`);
    return 2;
  }
}
