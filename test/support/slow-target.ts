/**
 * The in-memory sandbox behind a loopback front that answers some requests late: a target that is
 * slow, not wrong. Closes completely.
 */
import { createServer, request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../src/sandbox/index.ts';

export interface SlowTarget {
  url: string;
  close(): Promise<void>;
}

/** Requests for which isLate(method, path) holds are forwarded delayMs late; the rest at once. */
export async function startSlowTarget(isLate: (method: string, path: string) => boolean, delayMs: number): Promise<SlowTarget> {
  const sandbox = await startSandbox({ db: ':memory:' });
  const timers = new Set<NodeJS.Timeout>();
  const upstreams = new Set<ClientRequest>();
  const front = createServer((incoming, outgoing) => {
    const forward = () => {
      const upstream = request(`${sandbox.url}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer: IncomingMessage) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      upstreams.add(upstream);
      upstream.on('close', () => upstreams.delete(upstream));
      upstream.on('error', () => outgoing.destroy());
      incoming.pipe(upstream);
    };
    if (!isLate(incoming.method ?? 'GET', incoming.url ?? '/')) return forward();
    incoming.pause();
    const timer = setTimeout(() => {
      timers.delete(timer);
      // A client that gave up meanwhile leaves nothing to forward.
      if (incoming.destroyed) return;
      incoming.resume();
      forward();
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const upstream of upstreams) upstream.destroy();
      await new Promise<void>((resolve) => {
        front.close(() => resolve());
        front.closeAllConnections();
      });
      await sandbox.close();
    },
  };
}
