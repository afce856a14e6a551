/** What every command of the command line shares: its options parsed strictly, bad input as one-line UsageErrors, and its voice. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

/** node's parseArgs, strict, with its errors turned into one-line UsageErrors. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, allowPositionals: true, strict: true, options });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec(message)?.[1] ?? message;
      throw new UsageError(`unknown option ${option}`);
    }
    // node's own messages, e.g. "Option '--seed <value>' argument missing", on one line.
    throw new UsageError(message.replace(/\s*\n\s*/g, ' '));
  }
}

export function integer(option: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`${option} must be an integer from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

export function httpUrl(option: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${option} must be an absolute http(s) URL, not "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${option} must be an http(s) URL, not "${text}"`);
  }
  return text;
}

/** A line of the command line's own output. */
export const say = (line: string) => console.log(`checkout-conformance: ${line}`);
