/** "checkout-conformance sandbox": the reference sandbox alone, until SIGINT or SIGTERM. */
import { parseArgs } from 'node:util';
import { pageStyleNames, type PageStyleName } from './context.ts';
import { defaultSandboxOptions, startSandbox, type SandboxOptions } from './index.ts';
import { whenParentGone } from '../core/parent-watch.ts';
import { integer, UsageError } from '../core/command-line.ts';

export const sandboxUsage = `Usage: checkout-conformance sandbox [options]

  --port N                     port on 127.0.0.1 (default 0: a free one, printed)
  --db FILE                    SQLite database file, or :memory: (default ${defaultSandboxOptions.db})
  --entity DIGITS              entity number of ATM references (default ${defaultSandboxOptions.entity})
  --notification-secret TEXT   key of the PayPay-Signature of notifications
  --page-style plain|portal    markup of the hosted pages and the widget: plain (data-testid hooks) or
                               portal (Portuguese, card fields in an iframe) (default ${defaultSandboxOptions.pageStyle})
  --latency-ms N               answer every request N ms late, as a hosted sandbox across a network would
                               (default ${defaultSandboxOptions.latencyMs})
  --help`;

function parseSandboxOptions(args: string[]): SandboxOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      options: {
        port: { type: 'string' },
        db: { type: 'string' },
        entity: { type: 'string' },
        'notification-secret': { type: 'string' },
        'page-style': { type: 'string' },
        'latency-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) return 'help';
  const options: SandboxOptions = {};
  if (values.port !== undefined) {
    if (!/^[0-9]{1,5}$/.test(values.port) || Number(values.port) > 65535) {
      throw new UsageError(`--port must be a port number from 0 to 65535, not "${values.port}"`);
    }
    options.port = Number(values.port);
  }
  if (values.db !== undefined) {
    if (values.db === '') throw new UsageError('--db needs a file path or :memory:');
    options.db = values.db;
  }
  if (values.entity !== undefined) {
    if (!/^[0-9]{5}$/.test(values.entity)) throw new UsageError(`--entity must be 5 digits, not "${values.entity}"`);
    options.entity = values.entity;
  }
  if (values['notification-secret'] !== undefined) options.notificationSecret = values['notification-secret'];
  const pageStyle = values['page-style'];
  if (pageStyle !== undefined) {
    if (!pageStyleNames.includes(pageStyle as PageStyleName)) {
      throw new UsageError(`--page-style must be ${pageStyleNames.join(' or ')}, not "${pageStyle}"`);
    }
    options.pageStyle = pageStyle as PageStyleName;
  }
  if (values['latency-ms'] !== undefined) options.latencyMs = integer('--latency-ms', values['latency-ms'], 0, 60_000);
  return options;
}

/** Starts the sandbox, prints its URL and stops it cleanly on SIGINT or SIGTERM. */
export async function sandboxCommand(args: string[]): Promise<void> {
  const options = parseSandboxOptions(args);
  if (options === 'help') {
    console.log(sandboxUsage);
    return;
  }
  const sandbox = await startSandbox(options);
  const latency = options.latencyMs ? `, every answer ${options.latencyMs} ms late` : '';
  console.log(`reference sandbox listening on ${sandbox.url} (database ${options.db ?? defaultSandboxOptions.db}${latency})`);
  const stop = async () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    stopWatching();
    await sandbox.close();
    console.log('reference sandbox stopped');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Through npx, a SIGTERM ends npm's shell only: its end is the signal.
  const stopWatching = whenParentGone(() => void stop());
}
