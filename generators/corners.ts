/**
 * The corners of a field's type, applied wherever the type appears. Free text (a string of the
 * schemas with no format and no pattern, whose value a row of 4.1 leaves open) is any Unicode text
 * of any length, as the reference sets no bound: its corners are the planes and scripts beyond
 * Latin, marks that combine, text that runs right to left, characters that quote or escape, and
 * lengths well past the everyday. A target may refuse a corner (SEC-2, recorded), never fail on it.
 */
import type { CheckoutRequest } from '../schemas/generated/types.ts';
import { checkoutRows } from '../src/checks/checkout-kinds.ts';
import { loadSchema, type JsonSchema } from '../src/core/schemas.ts';
import { checkoutVariants } from './checkouts.ts';
import { inputClass, type InputClass } from './input-class.ts';

interface Corner {
  name: string;
  /** The corner, from the everyday value it stands in for. */
  text: (everyday: string) => string;
}

const padded = (length: number) => (everyday: string) => everyday.padEnd(length, ` ${everyday}`).slice(0, length);

export const textCorners: Corner[] = [
  { name: 'astral plane (an emoji, U+1F600)', text: (everyday) => `${everyday} 😀` },
  { name: 'a zero-width-joiner sequence (👩‍💻)', text: (everyday) => `${everyday} 👩‍💻` },
  { name: 'combining marks (e + U+0301, not é)', text: (everyday) => `${everyday}e\u0301` },
  { name: 'right to left (Arabic)', text: () => 'مريم العلي' },
  { name: 'CJK (Japanese)', text: () => '山田 太郎' },
  { name: 'Greek and Cyrillic', text: () => 'Ελένη Иванова' },
  { name: 'quotes, a backslash and angle brackets', text: (everyday) => `${everyday} O'Brien "Jr" <b>\\` },
  { name: '255 characters', text: padded(255) },
  { name: '1,000 characters', text: padded(1000) },
];

/** Whether a leaf of the checkout request's schema (array items by index) is free text: a string with no format, no pattern, no listed values. */
function isFreeText(path: string): boolean {
  let schema: JsonSchema | undefined = loadSchema('checkout-request.schema.json');
  for (const key of path.split('.'))
    schema = /^\d+$/.test(key) ? (schema?.items as JsonSchema) : (schema?.properties as Record<string, JsonSchema> | undefined)?.[key];
  return schema?.type === 'string' && schema.format === undefined && schema.pattern === undefined && schema.enum === undefined;
}

/** The leaves of the web page's row that hold free text: those it leaves open (no value of its own) that the schemas type as free text. */
export const freeTextPaths = Object.entries(checkoutRows.embedWeb.leaves)
  .filter(([path, leaf]) => !('value' in leaf) && isFreeText(path))
  .map(([path]) => path);

/** The request with every free-text leaf it has turned to the corner. */
function withCorner(request: CheckoutRequest, corner: Corner): CheckoutRequest {
  const copy = structuredClone(request) as Record<string, unknown>;
  for (const path of freeTextPaths) {
    const keys = path.split('.');
    const parent = keys.slice(0, -1).reduce<Record<string, unknown> | undefined>((node, key) => node?.[key] as Record<string, unknown> | undefined, copy);
    const last = keys.at(-1)!;
    if (typeof parent?.[last] === 'string') parent[last] = corner.text(parent[last]);
  }
  return copy as CheckoutRequest;
}

/** The web page's row (it has the most free text) with every free-text leaf at one corner: a class of CHK-1 each, free to refuse. */
export const textCornerClasses: InputClass<CheckoutRequest>[] = textCorners.map((corner) =>
  inputClass(
    `free text: ${corner.name}`,
    checkoutVariants.embedWeb.map((request) => withCorner(request, corner)),
    'SEC-2',
  ),
);
