/**
 * Benign variants of the rate limits the reference leaves free (SEC-2: "rate limits: not shown"),
 * as an API gateway keeps them: a count of requests per client in a fixed window of one second of
 * the clock, and past it 429 Too Many Requests with Retry-After, on every path a client calls
 * (the reference's operations, the test helpers, the pages fetched without a browser).
 */
import { answer } from './edits.ts';
import type { ProxyRequest, Transform } from './proxy.ts';
import type { BenignVariant } from './kinds.ts';

/** What a customer's browser loads (a hosted page, its scripts, the form it posts) is another client's, with a bucket of its own. */
const fromBrowser = (request: ProxyRequest) => /Chrome\//.test(request.headers['user-agent'] ?? '');

/**
 * At most `perSecond` requests of the suite's client in each second of the clock; past it, 429 with
 * `Retry-After: retryAfter` until the next second starts its count again.
 */
export function limitedPerSecondWindow(perSecond: number, retryAfter: string): Transform {
  let window = -1;
  let counted = 0;
  return {
    request(request) {
      if (fromBrowser(request)) return;
      const now = Math.floor(Date.now() / 1000);
      if (now !== window) {
        window = now;
        counted = 0;
      }
      counted += 1;
      if (counted <= perSecond) return;
      const refused = answer(429, { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: `at most ${perSecond} requests a second` });
      return { ...refused, headers: { 'content-type': 'application/problem+json', 'retry-after': retryAfter } };
    },
  };
}

export const rateLimitVariants: BenignVariant[] = [
  {
    name: 'rate-limited-every-path',
    freedom: 'SEC-2',
    description:
      'At most 25 requests in each second of the clock, on every path the suite calls (operations, test helpers, pages fetched without a browser); past that, 429 Too Many Requests with Retry-After: 1.',
    transform: limitedPerSecondWindow(25, '1'),
  },
];
