/**
 * The ways ordinary HTTP clients and proxies frame a valid request (RFC 9110, RFC 9112, RFC 8259):
 * media-type parameters and letter case, chunked transfer coding, connection handling, content
 * negotiation, header names as written, and JSON written in another way with the same meaning. A
 * target must take each as it takes the suite's own framing: refusing one fails the operation's
 * acceptance clause.
 */
import fc from 'fast-check';
import { inputClass, type InputClass } from './input-class.ts';

/** A request as the target receives it: its headers (names in small letters), the names as written, its body's text. */
export interface OnTheWire {
  headers: Record<string, string>;
  headerNames: string[];
  text: string;
}

export interface Framing {
  /** How mutants and the report name it: a few words in kebab case. */
  id: string;
  /** Public reports of services that refused it, where the framing was taken from one. */
  refusedIn?: string[];
  name: string;
  /**
   * How a target tells this framing from the suite's own, on the wire: what a target that refuses it
   * looks at (mutants/operators.ts generates one such target per framing and operation).
   */
  seenIn: (request: OnTheWire) => boolean;
  /** Replaces the suite's headers of the same name, whatever their letter case. */
  headers?: Record<string, string>;
  /** The body's JSON text, written another way with the same meaning. */
  write?: (body: unknown) => string;
  /** The body in chunks (Transfer-Encoding: chunked), without Content-Length. */
  chunked?: boolean;
  /** Header names in title case (Content-Type), as many clients write them. */
  titleCase?: boolean;
}

/** A request as it goes on the wire. */
export interface FramedRequest {
  headers: Record<string, string>;
  text: string | undefined;
  chunked: boolean;
}

const escapeNonAscii = (text: string) => text.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A JSON value with every object's members in reverse order (members of an object have no order). */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, member]) => [key, reversed(member)]),
  );
}

/** Framings of any request: content negotiation, connection handling, header names, what proxies and common clients add. */
export const headerFramings: readonly Framing[] = [
  { id: 'accept-anything', name: 'Accept: */*', headers: { accept: '*/*' }, seenIn: ({ headers }) => headers.accept === '*/*' },
  {
    id: 'accept-q-values',
    name: 'Accept with several types and q-values',
    headers: { accept: 'application/json, text/plain;q=0.9, */*;q=0.8' },
    seenIn: ({ headers }) => /q=/.test(headers.accept ?? ''),
  },
  { id: 'connection-close', name: 'Connection: close', headers: { connection: 'close' }, seenIn: ({ headers }) => headers.connection === 'close' },
  { id: 'title-case-names', name: 'header names in title case', titleCase: true, seenIn: ({ headerNames }) => headerNames.some((name) => /^[A-Z]/.test(name)) },
  {
    id: 'proxy-headers',
    name: 'headers a reverse proxy adds (Via, X-Forwarded-For, X-Forwarded-Proto, Forwarded)',
    headers: { via: '1.1 edge-proxy', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', forwarded: 'for=203.0.113.7;proto=https' },
    seenIn: ({ headers }) => headers.via !== undefined,
  },
  {
    id: 'no-cache',
    name: 'Cache-Control: no-cache and Pragma: no-cache',
    headers: { 'cache-control': 'no-cache', pragma: 'no-cache' },
    seenIn: ({ headers }) => headers.pragma === 'no-cache',
  },
  {
    id: 'curl-user-agent',
    name: "curl's User-Agent",
    headers: { 'user-agent': 'curl/8.5.0' },
    seenIn: ({ headers }) => /^curl\//.test(headers['user-agent'] ?? ''),
  },
  {
    id: 'accept-language',
    name: 'Accept-Language of a Portuguese browser',
    headers: { 'accept-language': 'pt-PT,pt;q=0.9,en;q=0.8' },
    seenIn: ({ headers }) => (headers['accept-language'] ?? '').startsWith('pt-PT'),
  },
];

/** Framings of a request with a JSON body, besides those of any request. */
export const bodyFramings: readonly Framing[] = [
  {
    id: 'charset',
    refusedIn: ['https://github.com/aws/chalice/issues/306', 'https://github.com/bestarch-ae/cacherpc/issues/118'],
    name: 'Content-Type: application/json; charset=utf-8',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    seenIn: ({ headers }) => (headers['content-type'] ?? '').includes('; charset'),
  },
  {
    id: 'content-type-capitals',
    name: 'Content-Type in capitals, charset without a space (Application/JSON;charset=UTF-8)',
    headers: { 'content-type': 'Application/JSON;charset=UTF-8' },
    seenIn: ({ headers }) => /[A-Z]/.test(headers['content-type'] ?? ''),
  },
  {
    id: 'chunked',
    name: 'body in chunks (Transfer-Encoding: chunked, no Content-Length)',
    chunked: true,
    seenIn: ({ headers }) => headers['transfer-encoding'] === 'chunked',
  },
  {
    id: 'pretty-crlf',
    name: 'body pretty-printed, CRLF line ends',
    write: (body) => JSON.stringify(body, null, 2).replace(/\n/g, '\r\n'),
    seenIn: ({ text }) => text.includes('\r\n'),
  },
  {
    id: 'escaped',
    name: 'non-ASCII characters and slashes escaped (\\u00e9, \\/), as PHP writes them',
    write: (body) => escapeNonAscii(JSON.stringify(body)).replace(/\//g, '\\/'),
    seenIn: ({ text }) => /\\[u/]/.test(text),
  },
  {
    id: 'reversed-members',
    name: "every object's members in reverse order",
    write: (body) => JSON.stringify(reversed(body)),
    // The suite writes a body's members in the reference's order, which puts payment (a checkout) or type (a reference) first.
    seenIn: ({ text }) => text.startsWith('{"') && !/^\{"(payment|type)"/.test(text),
  },
  ...headerFramings,
];

const titleCased = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);

/** The suite's request (its headers, its JSON body) as the framing sends it. */
export function frameRequest(headers: Record<string, string>, body: unknown, framing: Framing): FramedRequest {
  const replaced = new Set(Object.keys(framing.headers ?? {}).map((name) => name.toLowerCase()));
  const merged = { ...Object.fromEntries(Object.entries(headers).filter(([name]) => !replaced.has(name.toLowerCase()))), ...framing.headers };
  const named = framing.titleCase ? Object.fromEntries(Object.entries(merged).map(([name, value]) => [titleCased(name), value])) : merged;
  const text = body === undefined ? undefined : (framing.write ?? JSON.stringify)(body);
  return { headers: named, text, chunked: framing.chunked === true && text !== undefined };
}

const classesOf = (framings: readonly Framing[]): InputClass<Framing>[] =>
  framings.map((framing) => inputClass(`framing: ${framing.name}`, fc.constant(framing)));

/** Each acceptance clause, the operation it is exercised on, and the framings of that operation's request (with a body or without). */
export const framingSites = [
  { clause: 'CHK-1', operation: 'createCheckout', framings: bodyFramings },
  { clause: 'REF-1', operation: 'createReference', framings: bodyFramings },
  { clause: 'REF-3', operation: 'getPayment', framings: headerFramings },
  { clause: 'PML-1', operation: 'listMethods', framings: headerFramings },
] as const;

/** The framings each acceptance clause is exercised in. */
export const framingClasses = Object.fromEntries(framingSites.map(({ clause, framings }) => [clause, classesOf(framings)])) as Record<
  (typeof framingSites)[number]['clause'],
  InputClass<Framing>[]
>;
