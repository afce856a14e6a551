/**
 * How fast a worker's requests go out: independent requests overlap (a target across a network
 * answers each one late), at most `limit` at a time, and no faster than the profile's rate cap. The
 * limit starts at the most allowed and halves while the target asks to wait or answers 429 or 503 (or none), once
 * for the requests that were in flight together (they met the same limit), drops by one while answers
 * take much longer than the fastest seen (the target is slowing down), and climbs back by one every
 * `limit` answers that are neither.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** In flight at once per worker, unless the profile says otherwise. */
export const defaultConcurrentRequests = 8;
/** An answer this much slower than twice the fastest seen means the target is slowing down. */
const slowMarginMs = 1000;

export interface PaceSettings {
  /** The most requests in flight at once. */
  maxConcurrent: number;
  /** The most requests started per second; null: no cap. */
  perSecond: number | null;
}

/** What the pacer learns from an answer. */
export interface AnswerLearnt {
  status: number;
  durationMs: number;
  /** The target asked the request to wait before it answered (a 429, or a 503 with Retry-After: src/core/transport.ts). */
  askedToWait?: boolean;
}

export interface Pacer {
  /** Waits for a free slot (and the rate cap), sends, and learns from the answer (a request that throws counts as a refusal). */
  send<T>(request: () => Promise<T>, answered: (answer: T) => AnswerLearnt): Promise<T>;
  /** The current limit on requests in flight. */
  readonly limit: number;
}

export function createPacer({ maxConcurrent, perSecond }: PaceSettings): Pacer {
  let limit = maxConcurrent;
  let inFlight = 0;
  let fastestMs = Number.POSITIVE_INFINITY;
  let nextStart = 0;
  /** How many times the limit was halved: a request that left before the last halving does not halve it again. */
  let halvings = 0;
  const waiting: Array<() => void> = [];
  const slots = () => Math.max(1, Math.floor(limit));

  const acquire = () => {
    if (inFlight < slots()) {
      inFlight += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    inFlight -= 1;
    while (waiting.length > 0 && inFlight < slots()) {
      inFlight += 1;
      waiting.shift()!();
    }
  };
  const startOnTime = async () => {
    if (perSecond === null) return;
    const now = Date.now();
    const at = Math.max(now, nextStart);
    nextStart = at + 1000 / perSecond;
    if (at > now) await sleep(at - now);
  };
  const learn = ({ status, durationMs, askedToWait }: AnswerLearnt, leftAfter: number) => {
    if (askedToWait || status === 429 || status === 503 || status === 0) {
      if (leftAfter === halvings) {
        limit = Math.max(1, limit / 2);
        halvings += 1;
      }
      return;
    }
    fastestMs = Math.min(fastestMs, durationMs);
    if (durationMs > 2 * fastestMs + slowMarginMs) limit = Math.max(1, limit - 1);
    else limit = Math.min(maxConcurrent, limit + 1 / limit);
  };

  return {
    async send(request, answered) {
      await acquire();
      try {
        await startOnTime();
        const leftAfter = halvings;
        const answer = await request().catch((error: unknown) => {
          learn({ status: 0, durationMs: 0 }, leftAfter);
          throw error;
        });
        learn(answered(answer), leftAfter);
        return answer;
      } finally {
        release();
      }
    },
    get limit() {
      return slots();
    },
  };
}

/**
 * Runs `work` on every item, at most `concurrency` at a time (the pacer bounds the requests anyway),
 * and answers the results in the items' order. After an error no new item starts; the ones under
 * way finish, and the first error is thrown.
 */
export async function inParallel<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>, concurrency = items.length): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await work(items[index], index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  const rejected = lanes.find((outcome) => outcome.status === 'rejected');
  if (rejected) throw rejected.reason;
  return results;
}

/** Runs the steps it is given one at a time, in the order they were given: the rest of their work may overlap. */
export function oneAtATime(): <R>(step: () => Promise<R>) => Promise<R> {
  let previous: Promise<unknown> = Promise.resolve();
  return (step) => {
    const result = previous.then(step);
    previous = result.catch(() => undefined);
    return result;
  };
}
