/** The specs' HTTP client: every exchange with the target recorded, bounded, paced, and masked for the report. */
import { expect } from '@playwright/test';
import { mask, type Evidence, type RecordedRequest } from '../core/evidence.ts';
import { readText, recordedBody } from '../core/http.ts';
import type { RunConfig } from '../core/run-config.ts';
import { describeProblems, type Exchange, type Problem } from '../checks/index.ts';
import { secretsOfRun } from '../core/profile.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pacer } from './pace.ts';
import { writeDown, writeDownSent } from './ledger.ts';
import { describeFetchError } from '../core/http.ts';
import { requestThrough } from '../core/transport.ts';
import { requestOf, type CallArguments, type OperationName } from '../core/operations.ts';
import { frameRequest, type Framing } from '../generators/framings.ts';

/** A body in small chunks: sent with Transfer-Encoding: chunked, without Content-Length. */
async function* inChunks(text: string, size = 16): AsyncIterable<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

const withoutHeader = (headers: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));

/** The most of an answer's body the client reads: the rest is dropped, never buffered (a 50 MB answer). */
const maxResponseBytes = 1024 * 1024;
/** The most of a body, or of an observed value, that one piece of evidence keeps. */
const maxEvidenceChars = 16 * 1024;

export interface SendOptions {
  method: string;
  path: string;
  body?: unknown;
  /** Sent as it is, for bodies that are not JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Leave out the run's headers (SEC-1). */
  withoutCredentials?: boolean;
  /** Framed as another HTTP client would frame it (src/generators/framings.ts). */
  framing?: Framing;
}

/** How a call is sent beside what its operation carries. */
export type SendExtras = Pick<SendOptions, 'rawBody' | 'headers' | 'withoutCredentials' | 'framing'>;

export interface Api {
  readonly baseUrl: string;
  /** A call of an operation of the table (src/core/operations.ts): its method and path from there. */
  call<Name extends OperationName>(name: Name, ...options: CallArguments<Name, SendExtras>): Promise<Exchange>;
  /** Every exchange of this test so far. */
  readonly exchanges: readonly Exchange[];
  /** What `work` answered, and the exchanges it made: its own alone, whatever else of the test runs beside it. */
  madeBy<R>(work: () => Promise<R>): Promise<{ result: R; exchanges: Exchange[] }>;
  /** Forgets the exchanges and problems so far but `kept` (a property keeps only its counterexample's). */
  forget(kept?: readonly Exchange[]): void;
  /** Adds evidence that is not an exchange with the target (a notification the receiver got). */
  note(evidence: Evidence): void;
  /**
   * The test's judgement: fails the test with its problems, the exchanges attached as evidence.
   * Each problem fails the clause it names; the test's other clauses count as verified.
   */
  expectNoProblems(problems: Problem[]): void;
  /**
   * A step the test needs (a checkout created, a reference's id): where it went wrong, the problems
   * fail the clauses they name and the test stops before its judgement, its own clauses not verified.
   */
  require(problems: Problem[]): void;
  /** A text fit for an error message: the run's secrets and full card numbers masked. */
  masked(text: string): string;
}

/** A value cut to maxEvidenceChars of its JSON text, with a note saying so; small values as they are. */
export function capped(value: unknown, what: string): { value: unknown; note: string | null } {
  if (value === undefined) return { value, note: null };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= maxEvidenceChars) return { value, note: null };
  return { value: `${text.slice(0, maxEvidenceChars)}…`, note: `${what} cut to its first ${maxEvidenceChars} of ${text.length} characters` };
}

function exchangeEvidence(exchange: Exchange, note: string): Evidence {
  const request = capped(exchange.request.body, 'request body');
  const response = capped(exchange.response.body, 'response body');
  return {
    request: { ...exchange.request, body: request.value },
    response: { ...exchange.response, body: response.value },
    note: [note, request.note, response.note].filter(Boolean).join('; '),
  };
}

/** A request the target did not answer in full; timedOutAfterMs: the request time-out that ended the wait (the target may be slow, not wrong), else null. */
export class NoCompleteAnswer extends Error {
  constructor(
    message: string,
    readonly timedOutAfterMs: number | null,
  ) {
    super(message);
  }
}

/**
 * The recording API client the specs use, its requests paced by the worker's pacer (src/harness/pace.ts).
 * beforeWrite runs before every request that is not a GET (the fixtures skip the test there on a
 * live target without --allow-writes).
 */
export function createApi(
  run: RunConfig,
  pacer: Pacer,
  hooks: {
    beforeWrite: () => void;
    beforeFailing: () => void;
    /** Headers on every request, credentials left out or not: what names the test to a target that records it. */
    marks?: Record<string, string>;
    /** What the test sends goes into the run's record of what it sent, and what it creates and reads into its ledger, for the final audit (not the audit's own reads). */
    ledger?: boolean;
  },
): Api & { evidence(): Evidence[]; problems: Problem[]; judged(): boolean } {
  let exchanges: Exchange[] = [];
  let notes: Evidence[] = [];
  /** The lists of the madeBy calls under way in this async context, the outermost first. */
  const madeHere = new AsyncLocalStorage<Exchange[][]>();
  const cutBodies = new WeakSet<Exchange>();
  const problems: Problem[] = [];
  let judged = false;
  const baseUrl = run.baseUrl.replace(/\/$/, '');
  const secrets = secretsOfRun(run.headers, run.profile);
  const timeoutMs = run.profile.timeouts.requestMs;

  /**
   * One exchange, through the pacer: the request as sent and the answer as read (cut at
   * maxResponseBytes), sent again where the target asks to wait (src/core/transport.ts).
   */
  async function exchange(request: RecordedRequest, rawBody: string | undefined, path: string, chunked: boolean): Promise<Exchange> {
    return pacer.send(
      async () => {
        const started = Date.now();
        let answer: Awaited<ReturnType<typeof requestThrough>>;
        let body: { text: string; cut: boolean };
        try {
          // Each attempt has one time-out, the answer's body read included: a target that drips its answer is cut off like a silent one.
          answer = await requestThrough(
            run.transport,
            request.url,
            () => ({
              method: request.method,
              headers: chunked ? withoutHeader(request.headers, 'transfer-encoding') : request.headers,
              body: chunked && rawBody !== undefined ? inChunks(rawBody) : rawBody,
            }),
            { timeoutMs, onResent: (why) => notes.push({ request, response: null, note: why }) },
          );
          body = await readText(answer.body, maxResponseBytes);
        } catch (error) {
          const why = describeFetchError(error, timeoutMs, request.url, run.transport);
          const waited = `waited ${Date.now() - started} ms`;
          notes.push({ request, response: null, note: `no complete answer (${waited}): ${why}` });
          const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
          throw new NoCompleteAnswer(`${request.method} ${path}: no complete answer (${waited}: ${why})`, timedOut ? timeoutMs : null);
        }
        const exchange: Exchange = {
          request,
          response: {
            status: answer.status,
            headers: answer.headers,
            body: body.cut ? body.text : recordedBody(body.text),
            durationMs: Date.now() - started - answer.waitedMs,
            ...(answer.waitedMs > 0 && { waitedMs: answer.waitedMs }),
          },
        };
        if (body.cut) cutBodies.add(exchange);
        return exchange;
      },
      ({ response }) => ({ status: response.status, durationMs: response.durationMs ?? 0, askedToWait: response.waitedMs !== undefined }),
    );
  }

  async function send(options: SendOptions): Promise<Exchange> {
    if (options.method !== 'GET') hooks.beforeWrite();
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(options.withoutCredentials ? {} : run.headers),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
      ...hooks.marks,
    };
    const framed = options.framing && frameRequest(headers, options.body, options.framing);
    // The evidence shows the transfer coding, which the client adds itself to a body sent in chunks.
    const sentHeaders = framed ? { ...framed.headers, ...(framed.chunked && { 'transfer-encoding': 'chunked' }) } : headers;
    const request: RecordedRequest = { method: options.method, url: `${baseUrl}${options.path}`, headers: sentHeaders, body: options.body ?? options.rawBody };
    const rawBody = options.rawBody ?? framed?.text ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const exchanged = await exchange(request, rawBody, options.path, framed?.chunked ?? false);
    exchanges.push(exchanged);
    for (const made of madeHere.getStore() ?? []) made.push(exchanged);
    return exchanged;
  }

  const masked = (text: string) => mask(text, secrets);

  return {
    baseUrl,
    async call(name, ...[{ param, query, ...sent } = {}]) {
      const request = {
        operation: name,
        ...(param !== undefined && { param }),
        ...(sent.rawBody === undefined ? { body: sent.body } : { rawBody: true as const }),
      };
      if (hooks.ledger) writeDownSent(run.outDir, secrets, request);
      const exchange = await send({ ...sent, ...requestOf(name, { param, query }) });
      if (hooks.ledger) writeDown(run.outDir, secrets, name, exchange, param);
      return exchange;
    },
    get exchanges() {
      return exchanges;
    },
    async madeBy(work) {
      const made: Exchange[] = [];
      const result = await madeHere.run([...(madeHere.getStore() ?? []), made], work);
      return { result, exchanges: made };
    },
    forget(kept = []) {
      exchanges = [...kept];
      notes = [];
      problems.length = 0;
      judged = false;
    },
    note(evidence) {
      notes.push(evidence);
    },
    problems,
    judged: () => judged,
    masked,
    expectNoProblems(found) {
      judged = true;
      // Playwright prints the failure and writes it into test-results: nothing secret may be in it.
      const safe = mask(found, secrets);
      problems.push(...safe);
      // Playwright's expect records a step with a source-mapped stack: worth it only for a failure.
      if (safe.length === 0) return;
      hooks.beforeFailing();
      expect(safe, `departures from the reference:\n${describeProblems(safe)}`).toEqual([]);
    },
    require(found) {
      const safe = mask(found, secrets);
      problems.push(...safe);
      if (safe.length === 0) return;
      hooks.beforeFailing();
      expect(safe, `a step the test needs went wrong:\n${describeProblems(safe)}`).toEqual([]);
    },
    evidence() {
      const fromExchanges = exchanges.map((exchange) =>
        exchangeEvidence(exchange, cutBodies.has(exchange) ? `the answer was longer than ${maxResponseBytes} bytes: only its start was read` : ''),
      );
      const summary = problems.length > 0 ? [{ request: null, response: null, note: describeProblems(problems) }] : [];
      return [...fromExchanges, ...notes, ...summary];
    },
  };
}
