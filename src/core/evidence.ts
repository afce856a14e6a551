import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { luhnValid } from './cards.ts';

/**
 * What a check looks at and what a failure carries: one HTTP exchange with the target, masked so
 * that no credential and no full card number ever reaches a report or the console.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON where the body is JSON, else the text. */
  body: unknown;
  /** From the sending of the attempt this answers to its last byte. */
  durationMs?: number;
  /** How long the request waited before that attempt, as the target asked (a 429: src/core/transport.ts); absent where it did not. */
  waitedMs?: number;
}

/** One request to the target and what it answered. */
export interface Exchange {
  request: RecordedRequest;
  response: RecordedResponse;
}

export interface Evidence {
  request: RecordedRequest | null;
  response: RecordedResponse | null;
  note: string;
  /** A command that sends the request again (curlOf). */
  curl?: string;
}

/** An argument as a POSIX shell reads it: bare where that is safe, else single-quoted. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Headers curl writes itself, or that describe one sending and not the request. */
const transportHeaders = /^(content-length|host|connection|accept-encoding|transfer-encoding)$/i;

/**
 * A curl command that sends a recorded request again, to reproduce a failure outside the suite.
 * Credentials are written as *** (a report never holds them): put yours in their place.
 */
export function curlOf(request: RecordedRequest): string {
  const headers = Object.entries(request.headers)
    .filter(([name]) => !transportHeaders.test(name))
    .flatMap(([name, value]) => ['-H', `${name}: ${credentialHeaders.test(name) ? '***' : value}`]);
  const body = request.body === undefined ? [] : ['--data-raw', typeof request.body === 'string' ? request.body : JSON.stringify(request.body)];
  return ['curl', '-X', request.method, request.url, ...headers, ...body].map(shellQuote).join(' ');
}

/** Names of the Playwright attachments that the specs write and the report reads. */
export const attachmentNames = {
  evidence: 'evidence',
  observation: 'observation',
  property: 'property',
  judgement: 'judgement',
  classes: 'classes',
  askedToWait: 'asked to wait',
} as const;

/** The annotation by which a test names a scenario class it exercises: its description is "CLAUSE: class name". */
export const classAnnotation = 'input class';

/** One class of input (src/generators/classes.ts) as a test met it: exercised, or skipped and why. */
export interface ClassOutcome {
  clause: ClauseId;
  name: string;
  /** Null: exercised; else why not (the target refused it where it may, no helper to reach it, it never came). */
  skipped: string | null;
}

/** An INFO observation: what the target did where the reference says "not shown". */
export interface Observation {
  note: string;
  value: unknown;
}

/** A fast-check property run: enough to replay it. */
export interface PropertyRun {
  seed: number;
  runs: number;
  path?: string;
  counterexample?: unknown;
}

/** Headers whose values are credentials: masked in every report, and learnt as secrets by observe. */
export const credentialHeaders = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|paypay-clientid)$/i;
const cardLike = /\b(?:\d[ -]?){12,18}\d\b/g;
const uuidLike = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Replaces every Luhn-valid card number in a text by its last four digits; digits of a UUID (its last groups may read as one) are kept. */
export function maskCardNumbers(text: string): string {
  // Most texts of a run are short or hold no card-like digits: the UUIDs are looked for only once one is found.
  if (text.length < 13) return text;
  let uuids: number[][] | undefined;
  return text.replace(cardLike, (match, offset: number) => {
    uuids ??= [...text.matchAll(uuidLike)].map((found) => [found.index, found.index + found[0].length]);
    if (uuids.some(([from, to]) => offset >= from && offset < to)) return match;
    const digits = match.replace(/[ -]/g, '');
    return digits.length >= 13 && luhnValid(digits) ? `************${digits.slice(-4)}` : match;
  });
}

/**
 * Masks a value for a report: the given secrets wherever they appear, credential headers, and card
 * numbers. Works on any JSON-like value and returns a copy.
 */
export function mask<T>(value: T, secrets: readonly string[] = []): T {
  const usable = secrets.filter((secret) => secret.length >= 4);
  const maskText = (text: string) => maskCardNumbers(usable.reduce((masked, secret) => masked.split(secret).join('***'), text));
  const walk = (node: unknown, key?: string): unknown => {
    if (typeof node === 'string') return key && credentialHeaders.test(key) ? '***' : maskText(node);
    if (Array.isArray(node)) return node.map((item) => walk(item));
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k)]));
    }
    return node;
  };
  return walk(value) as T;
}

/** The secret values of a set of headers (both the raw value and, for Basic auth, its decoding). */
export function secretsOf(headers: Record<string, string>): string[] {
  return Object.values(headers).flatMap((value) => {
    const basic = /^Basic\s+(.+)$/i.exec(value);
    return basic ? [value, basic[1], Buffer.from(basic[1], 'base64').toString('utf8')] : [value];
  });
}

/**
 * The exchanges that prove a problem, without the repetition between them, each request with the
 * curl command that sends it again: of a run of three or more exchanges with the same request (a
 * poll until something settles), the first and the last are kept and the rest counted in a note
 * between them.
 */
export function condenseEvidence(evidence: readonly Evidence[]): Evidence[] {
  const sameRequest = (a: Evidence, b: Evidence) => a.request !== null && b.request !== null && JSON.stringify(a.request) === JSON.stringify(b.request);
  const condensed: Evidence[] = [];
  for (let start = 0; start < evidence.length;) {
    let end = start + 1;
    while (end < evidence.length && sameRequest(evidence[start], evidence[end])) end += 1;
    const omitted = end - start - 2;
    if (omitted > 0) {
      const { method, url } = evidence[start].request!;
      condensed.push(
        evidence[start],
        { request: null, response: null, note: `${omitted} more identical ${method} ${url} between the first and the last, omitted` },
        evidence[end - 1],
      );
    } else {
      condensed.push(...evidence.slice(start, end));
    }
    start = end;
  }
  return condensed.map((kept) => (kept.request ? { ...kept, curl: curlOf(kept.request) } : kept));
}
