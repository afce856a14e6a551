/** One bounded request before any spec: any HTTP answer means the target is alive. */
import { randomUUID } from 'node:crypto';

/** Joins a path to a base URL that may itself carry a path ("https://host/api"). */
export function targetUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** Resolves to null when the target answered, else to the reason it is unusable. */
export async function preflight(baseUrl: string, headers: Record<string, string>, timeoutMs: number): Promise<string | null> {
  const url = targetUrl(baseUrl, `/payments/${randomUUID()}`);
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.body?.cancel();
    return null;
  } catch (error) {
    return `target ${baseUrl} is unreachable: ${describeFetchError(error, timeoutMs)}`;
  }
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  // fetch wraps the socket error ("connect ECONNREFUSED 127.0.0.1:1") in a TypeError's cause.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message ?? cause?.code ?? (error as Error).message;
}
