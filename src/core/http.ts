/** What every layer that speaks HTTP shares: reading a body, recording it, describing a failed fetch. */
import { describeTransportFailure } from './transport.ts';
import type { Transport } from './transport-options.ts';

/** A body's text, up to maxBytes: a longer body is cut there and the rest is not read. */
export async function readText(body: AsyncIterable<Uint8Array> | null, maxBytes = Infinity): Promise<{ text: string; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    chunks.push(chunk);
    size += chunk.length;
    // Leaving the loop cancels the stream: the rest is not read.
    if (size > maxBytes) return { text: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'), cut: true };
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut: false };
}

/** A recorded body: its JSON where it is JSON, else the text as it came (undefined when empty). */
export function recordedBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * What a failed fetch() says: the transport's own reason where it is the cause (an untrusted
 * certificate, a refused client certificate, a proxy), else the socket error wrapped in its cause
 * ("connect ECONNREFUSED 127.0.0.1:1").
 */
export function describeFetchError(error: unknown, timeoutMs: number, url?: string, transport?: Transport): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no complete answer within ${timeoutMs} ms`;
  const transportFailure = url === undefined ? null : describeTransportFailure(error, url, transport);
  if (transportFailure) return transportFailure;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message ?? cause?.code ?? (error as Error).message;
}
