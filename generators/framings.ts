/**
 * The ways ordinary HTTP clients and proxies frame a valid request (RFC 9110, RFC 9112, RFC 8259):
 * media-type parameters and letter case, chunked transfer coding, connection handling, content
 * negotiation, header names as written, and JSON written in another way with the same meaning. A
 * target must take each as it takes the suite's own framing: refusing one fails the operation's
 * acceptance clause.
 */
import fc from 'fast-check';
import { inputClass, type InputClass } from './input-class.ts';

export interface Framing {
  name: string;
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

/** Framings of any request: content negotiation, connection handling, header names. */
export const headerFramings: readonly Framing[] = [
  { name: 'Accept: */*', headers: { accept: '*/*' } },
  { name: 'Accept with several types and q-values', headers: { accept: 'application/json, text/plain;q=0.9, */*;q=0.8' } },
  { name: 'Connection: close', headers: { connection: 'close' } },
  { name: 'header names in title case', titleCase: true },
];

/** Framings of a request with a JSON body, besides those of any request. */
export const bodyFramings: readonly Framing[] = [
  { name: 'Content-Type: application/json; charset=utf-8', headers: { 'content-type': 'application/json; charset=utf-8' } },
  { name: 'Content-Type in capitals, charset without a space (Application/JSON;charset=UTF-8)', headers: { 'content-type': 'Application/JSON;charset=UTF-8' } },
  { name: 'body in chunks (Transfer-Encoding: chunked, no Content-Length)', chunked: true },
  { name: 'body pretty-printed, CRLF line ends', write: (body) => JSON.stringify(body, null, 2).replace(/\n/g, '\r\n') },
  {
    name: 'non-ASCII characters and slashes escaped (\\u00e9, \\/), as PHP writes them',
    write: (body) => escapeNonAscii(JSON.stringify(body)).replace(/\//g, '\\/'),
  },
  { name: "every object's members in reverse order", write: (body) => JSON.stringify(reversed(body)) },
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

/** The framings each acceptance clause is exercised in: of its operation's request, with a body or without. */
export const framingClasses: Record<'CHK-1' | 'REF-1' | 'REF-3' | 'PML-1', InputClass<Framing>[]> = {
  'CHK-1': classesOf(bodyFramings),
  'REF-1': classesOf(bodyFramings),
  'REF-3': classesOf(headerFramings),
  'PML-1': classesOf(headerFramings),
};
