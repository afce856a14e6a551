/** The command line: "checkout-conformance run|observe|diff|merge|package|verify|sandbox". Usage errors are one line and exit 2. */
import { readFileSync } from 'node:fs';
import { packageRoot } from './core/package-root.ts';
import { BaselineError } from './report/baseline.ts';
import { parseRunOptions, runUsage } from './runner/options.ts';
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

interface Command {
  /** Printed for --help; the sandbox's command prints its own. */
  usage: string | null;
  /** Resolves to the exit code, or to null for a command that keeps running (the sandbox). */
  run(args: string[]): Promise<number | null> | number | null;
}

// Each command's modules load only when it runs: a run starts Playwright before the report's, the
// probes' and the other commands' modules have loaded (about 0.2 s sooner).
const commands: Record<string, () => Promise<Command>> = {
  run: () => import('./runner/run.ts').then((module) => ({ usage: runUsage, run: (args) => module.runConformance(parseRunOptions(args)) })),
  observe: () => import('./observe/command.ts').then((module) => ({ usage: module.observeUsage, run: module.observeCommand })),
  diff: () => import('./runner/diff.ts').then((module) => ({ usage: module.diffUsage, run: module.diffCommand })),
  merge: () => import('./runner/merge.ts').then((module) => ({ usage: module.mergeUsage, run: module.mergeCommand })),
  package: () => import('./runner/package.ts').then((module) => ({ usage: module.packageUsage, run: module.packageCommand })),
  verify: () => import('./runner/verify.ts').then((module) => ({ usage: module.verifyUsage, run: module.verifyCommand })),
  async sandbox() {
    const { sandboxCommand } = await import('./sandbox/command.ts');
    return {
      usage: null,
      async run(args) {
        await sandboxCommand(args);
        return null;
      },
    };
  },
};

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
    const loadCommand = Object.hasOwn(commands, command) ? commands[command] : undefined;
    if (!loadCommand) throw new UsageError(`unknown command "${command}" (expected run, observe, diff, merge, package, verify or sandbox)`);
    const { usage: commandUsage, run } = await loadCommand();
    if (commandUsage && (rest.includes('--help') || rest.includes('-h'))) {
      console.log(commandUsage);
      return 0;
    }
    return await run(rest);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof BaselineError)) throw error;
    console.error(`checkout-conformance: ${error.message} (see --help)`);
    return 2;
  }
}
