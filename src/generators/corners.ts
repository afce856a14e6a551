/**
 * The corners of a field's type, applied wherever the type appears. Free text (a string of the
 * schemas with no format and no pattern, whose value a row of 4.1 leaves open) is any Unicode text
 * of any length, as the reference sets no bound: its corners are the planes and scripts beyond
 * Latin, marks that combine, text that runs right to left, characters that quote or escape, and
 * lengths well past the everyday. A target may refuse a corner (SEC-2, recorded), never fail on it.
 * A formatted field (a UUID, an e-mail address, a phone number, a country code, a URL) has the valid forms
 * an everyday example never takes: a row must be accepted with each, except where the reference's
 * words leave the form open (classifyCheckout says which, CHK-13) or the text is past the everyday.
 */
import type { CheckoutRequest } from '../../schemas/generated/types.ts';
import { checkoutRows, type CheckoutRow } from '../core/checkout-rows.ts';
import { loadSchema, type JsonSchema } from '../core/schemas.ts';
import { checkoutVariants } from './checkouts.ts';
import { inputClass, type InputClass } from './input-class.ts';
import { groupedDigits } from './values.ts';

interface Corner {
  name: string;
  /** The corner, from the everyday value it stands in for. */
  text: (everyday: string) => string;
  /** Characters of the everyday text, which a row must be taken with. */
  everyday?: true;
}

const padded = (length: number) => (everyday: string) => everyday.padEnd(length, ` ${everyday}`).slice(0, length);

export const textCorners: Corner[] = [
  { name: 'astral plane (an emoji, U+1F600)', text: (everyday) => `${everyday} 😀` },
  { name: 'a zero-width-joiner sequence (👩‍💻)', text: (everyday) => `${everyday} 👩‍💻` },
  { name: 'combining marks (e + U+0301, not é)', text: (everyday) => `${everyday}e\u0301` },
  { name: 'right to left (Arabic)', text: () => 'مريم العلي' },
  { name: 'CJK (Japanese)', text: () => '山田 太郎' },
  { name: 'Greek and Cyrillic', text: () => 'Ελένη Иванова' },
  { name: 'quotes, a backslash and angle brackets', text: (everyday) => `${everyday} O'Brien "Jr" <b>\\`, everyday: true },
  { name: '255 characters', text: padded(255) },
  { name: '1,000 characters', text: padded(1000) },
];

/** The schema of a leaf of the checkout request (array items by index). */
function schemaAt(path: string): JsonSchema | undefined {
  let schema: JsonSchema | undefined = loadSchema('checkout-request.schema.json');
  for (const key of path.split('.'))
    schema = /^\d+$/.test(key) ? (schema?.items as JsonSchema) : (schema?.properties as Record<string, JsonSchema> | undefined)?.[key];
  return schema;
}

/** The rows of 4.1, those with the most leaves first (the web page's row before the others). */
const rowsMostLeavesFirst = (Object.keys(checkoutRows) as CheckoutRow[]).sort(
  (one, other) => Object.keys(checkoutRows[other].leaves).length - Object.keys(checkoutRows[one].leaves).length,
);
/**
 * The leaves the rows leave open (no value of their own) that the schemas type as strings of a format
 * or pattern or as free text, each with the row with most leaves that has it.
 */
const openStringLeaves = new Map<string, CheckoutRow>();
for (const row of rowsMostLeavesFirst)
  for (const [path, leaf] of Object.entries(checkoutRows[row].leaves))
    if (!('value' in leaf) && schemaAt(path)?.type === 'string' && schemaAt(path)?.enum === undefined && !openStringLeaves.has(path))
      openStringLeaves.set(path, row);
const isFormatted = (path: string) => schemaAt(path)?.format !== undefined || schemaAt(path)?.pattern !== undefined;

export const freeTextPaths = [...openStringLeaves.keys()].filter((path) => !isFormatted(path));
export const formattedPaths = [...openStringLeaves.keys()].filter(isFormatted);
/** The row a formatted leaf's corners are sent on. */
export const rowOfLeaf = (path: string): CheckoutRow => openStringLeaves.get(path)!;

/** The request with the leaf at path (dotted, arrays by index) set to what it makes of the leaf's value, where the request has it. */
function withLeaf(request: CheckoutRequest, path: string, value: (current: string) => string): CheckoutRequest {
  const copy = structuredClone(request) as Record<string, unknown>;
  const keys = path.split('.');
  const parent = keys.slice(0, -1).reduce<Record<string, unknown> | undefined>((node, key) => node?.[key] as Record<string, unknown> | undefined, copy);
  const last = keys.at(-1)!;
  if (typeof parent?.[last] === 'string') parent[last] = value(parent[last]);
  return copy as CheckoutRequest;
}

/** The web page's row (it has the most free text) with every free-text leaf at one corner: a class of CHK-1 each, free to refuse past the everyday. */
export const textCornerClasses: InputClass<CheckoutRequest>[] = textCorners.map((corner) =>
  inputClass(
    `free text: ${corner.name}`,
    checkoutVariants.embedWeb.map((request) => freeTextPaths.reduce((cornered, path) => withLeaf(cornered, path, corner.text), request)),
    corner.everyday ? undefined : 'SEC-2',
  ),
);

const longUrl = `https://shop.example/${Array.from({ length: 120 }, (_, index) => `section-${index}`).join('/')}/done`;

/**
 * The valid forms of each formatted field of a row, by its leaf: named, and where the reference
 * leaves the form open, the freedom a refusal is recorded under.
 */
export const formatCorners: Record<string, Array<{ name: string; value: string; mayBeRefused?: 'CHK-13' | 'SEC-2' }>> = {
  // RFC 9562 section 4 reads a UUID without regard to letter case; the suite writes its registered customer in the case given here.
  'payment.customer.uuid': [{ name: 'capitals', value: 'F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6' }],
  'payment.customer.email': [
    { name: 'a plus tag', value: 'ana+shop@example.pt' },
    { name: 'capitals', value: 'Ana.Silva@Example.PT' },
    { name: 'an apostrophe', value: "o'brien@example.ie" },
    { name: 'digits, a hyphen, an underscore and subdomains', value: 'ana_silva-2@mail-1.eu.shop.example.pt' },
    { name: 'a long top-level domain', value: 'ana@shop.photography' },
    { name: 'a local part of 64 characters (the most RFC 5321 allows)', value: `${'a'.repeat(64)}@example.pt` },
    { name: 'letters beyond ASCII (RFC 6531)', value: 'joão@exemplo.pt', mayBeRefused: 'CHK-13' },
    { name: 'a quoted local part', value: '"ana..silva"@example.pt', mayBeRefused: 'CHK-13' },
  ],
  'payment.customer.phoneNumber': [
    { name: 'a country code of one digit', value: '1#2025550123' },
    { name: 'a country code of four digits', value: '1684#6331234' },
    { name: 'a number with a leading zero', value: '39#0612345678' },
    { name: 'a number of 7 digits', value: '354#4211234' },
    { name: 'a number of 13 digits', value: '49#1512345678901' },
    { name: 'a + before the country code', value: '+351#912345678', mayBeRefused: 'CHK-13' },
  ],
  'payment.billingAddress.country': [{ name: 'small letters', value: 'pt', mayBeRefused: 'CHK-13' }],
  'redirects.0.url': [
    { name: 'a port', value: 'https://shop.example:8443/done' },
    { name: 'percent-encoded characters in the path', value: 'https://shop.example/caf%C3%A9/done%20now' },
    { name: 'an internationalised domain (punycode)', value: 'https://xn--caf-dma.example/done' },
    { name: 'an IPv4 address for host', value: 'https://192.0.2.10/done' },
    { name: 'capitals in scheme, host and path', value: 'HTTPS://Shop.Example/Done' },
    { name: 'a query with encoded characters and a repeated name', value: 'https://shop.example/done?pair=a%26b&tag=1&tag=2' },
    { name: 'no path', value: 'https://shop.example' },
    { name: 'http, not https', value: 'http://shop.example/done', mayBeRefused: 'CHK-13' },
    { name: `a URL of ${groupedDigits(longUrl.length)} characters`, value: longUrl, mayBeRefused: 'SEC-2' },
  ],
};

/** A corner's value as a class name shows it: cut where long, left out where a report would mask it as a card number. */
const shownInName = (value: string) => (/\d{12}/.test(value) ? '' : ` (${value.length > 60 ? `${value.slice(0, 40)}…` : value})`);

/** A row with one formatted leaf at one of its corners: a class of CHK-1 each. */
export const formatCornerClasses: InputClass<CheckoutRequest>[] = Object.entries(formatCorners).flatMap(([path, corners]) =>
  corners.map((corner) =>
    inputClass(
      `${path.replace(/\.0\./, '[].')}: ${corner.name}${shownInName(corner.value)}`,
      checkoutVariants[rowOfLeaf(path)].map((request) => withLeaf(request, path, () => corner.value)),
      corner.mayBeRefused,
    ),
  ),
);
