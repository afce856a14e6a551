/**
 * The catalogue that nobody has to imagine: mutation operators applied to every site where they fit.
 * A site is a documented field of an answer, read from the schemas (the one source of the fields);
 * an operator is a way real implementations get such a field wrong (the values family: a field left
 * out, answered null, of another JSON type, or under another spelling of its name). A generated
 * mutant must fail the first clause its site's schema names (x-clauses), and may disturb the site's
 * other clauses, those of the objects that hold it and those of the fields it holds. Each operator has a benign twin where the
 * reference leaves that behaviour free: a field beside the documented ones, of any name and value.
 */
import { loadSchema, type JsonSchema, type SchemaFile } from '../src/core/schemas.ts';
import { editBody, envelopes, type Json } from './edits.ts';
import type { Route } from './proxy.ts';
import type { BenignVariant, Mutant } from './kinds.ts';

export interface Site {
  /** The answer's object and the field's path in it: checkout.stateDetails.state. */
  name: string;
  /** Where the field is in the answer's body: keys, `[]` for every element of an array. */
  path: string[];
  routes: Route[];
  required: boolean;
  /** The field's clauses; then those of the objects that hold it, and of the fields it holds. */
  clauses: string[];
  relatedClauses: string[];
}

/** The answers whose fields the schemas document, and where in the body each schema's object lies. */
const answered: Array<{ object: string; schema: SchemaFile; routes: Route[]; at: string[] }> = [
  { object: 'checkout', schema: 'checkout.schema.json', routes: ['createCheckout'], at: ['data'] },
  { object: 'payment', schema: 'payment.schema.json', routes: ['getPayment'], at: ['data'] },
  { object: 'stored-method', schema: 'stored-payment-method.schema.json', routes: ['listMethods'], at: ['data', '[]'] },
  { object: 'envelope', schema: 'envelope.schema.json', routes: envelopes, at: [] },
];

/** Every site of the schemas: each field with clauses of its own, outside the envelope's data (its operations' own fields are sites). */
export function sitesOf(): Site[] {
  const sites = new Map<string, Site>();
  for (const { object, schema: file, routes, at } of answered) {
    const root = loadSchema(file);
    const resolve = (schema: JsonSchema): JsonSchema =>
      typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/') ? (root.$defs as Record<string, JsonSchema>)[schema.$ref.slice(8)] : schema;
    const walk = (schema: JsonSchema, path: string[], required: boolean, relatedClauses: string[]) => {
      const resolved = resolve(schema);
      const clauses = (resolved['x-clauses'] as string[] | undefined) ?? [];
      if (path.length > at.length && clauses.length > 0 && path.at(-1) !== 'data') {
        const name = [object, ...path.slice(at.length).filter((key) => key !== '[]')].join('.');
        const known = sites.get(name);
        sites.set(name, { name, path, routes, required, clauses, relatedClauses: [...new Set([...(known?.relatedClauses ?? []), ...relatedClauses])] });
      }
      const holding = [...relatedClauses, ...clauses];
      const requiredHere = new Set((resolved.required as string[] | undefined) ?? []);
      for (const [name, child] of Object.entries((resolved.properties as Record<string, JsonSchema> | undefined) ?? {}))
        walk(child, [...path, name], requiredHere.has(name), holding);
      if (resolved.items) walk(resolved.items as JsonSchema, [...path, '[]'], true, holding);
      for (const variant of (resolved.oneOf as JsonSchema[] | undefined) ?? []) walk(variant, path, required, relatedClauses);
    };
    walk(root, at, true, []);
  }
  // A field's absence takes the fields it holds with it: an object site may disturb their clauses too.
  return [...sites.values()].map((site) => ({
    ...site,
    relatedClauses: [
      ...new Set([...site.relatedClauses, ...[...sites.values()].filter((inner) => inner.name.startsWith(`${site.name}.`)).flatMap((inner) => inner.clauses)]),
    ],
  }));
}

/** Applies an edit to the field at the site in every object the path reaches. */
function atSite(value: Json, path: string[], edit: (holder: Json, name: string) => void): void {
  if (value === null || typeof value !== 'object') return;
  const [head, ...rest] = path;
  if (head === '[]') {
    if (Array.isArray(value)) for (const element of value) atSite(element, rest, edit);
  } else if (rest.length === 0) {
    if (head in value) edit(value, head);
  } else atSite(value[head], rest, edit);
}

/** Another spelling of a name, as another convention writes it: camelCase in snake_case, a single word capitalised. */
const respelled = (name: string) =>
  /[A-Z]/.test(name) ? name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) : `${name[0].toUpperCase()}${name.slice(1)}`;

/** The value as another JSON type holds it: a number's digits as text, text as a number where it is one (else in an array), an object or a scalar in an array, an array as its first element. */
function retyped(value: Json): Json {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : [value];
  if (Array.isArray(value)) return value[0] ?? null;
  return [value];
}

interface Operator {
  name: string;
  /** What the mutant's description says happens to the field. */
  says: string;
  fits: (site: Site) => boolean;
  edit: (holder: Json, name: string) => void;
}

export const operators: Operator[] = [
  { name: 'absent', says: 'is left out', fits: (site) => site.required, edit: (holder, name) => delete holder[name] },
  { name: 'null', says: 'is null', fits: () => true, edit: (holder, name) => (holder[name] = null) },
  {
    name: 'retyped',
    says: 'has another JSON type (text for a number, a number for digits, an array around a value)',
    fits: () => true,
    edit: (holder, name) => (holder[name] = retyped(holder[name])),
  },
  {
    name: 'respelled',
    says: 'is spelled another way (snake_case, a capital)',
    fits: (site) => site.path.at(-1) !== '[]',
    edit: (holder, name) => {
      holder[respelled(name)] = holder[name];
      delete holder[name];
    },
  },
];

const routeNames = (site: Site) => (site.routes === envelopes ? 'every answer' : site.routes.join(', '));

/** Every operator at every site where it fits: mutants named `<site>-<operator>`. */
const sites = sitesOf();

export const generatedMutants: Mutant[] = sites.flatMap((site) =>
  operators
    .filter((operator) => operator.fits(site))
    .map((operator) => ({
      name: `${site.name}-${operator.name}`,
      clause: site.clauses[0],
      disturbs: [...new Set([...site.clauses.slice(1), ...site.relatedClauses])].filter((clause) => clause !== site.clauses[0]),
      description: `Generated (${operator.name} at ${site.name}): in the answers of ${routeNames(site)}, ${site.name} ${operator.says}.`,
      transform: editBody(site.routes, (body) => atSite(body, site.path, operator.edit)),
    })),
);

/** How the report names the generated catalogue: its sites, operators and mutants. */
export const generatedCatalogue = `the ${generatedMutants.length} mutants generated from ${sites.length} sites × ${operators.length} operators (${operators.map(({ name }) => name).join(', ')})`;

/** The twin of every operator: beside each site's field, one the reference does not show (a conforming target may add any), under a respelled name with a retyped value. */
export const operatorTwins: BenignVariant[] = [
  {
    name: 'generated-twin-field-beside-every-site',
    description:
      'Beside the field of every site of the generated catalogue, one the reference does not show: its name respelled after x_, its value of another JSON type.',
    transform: editBody(envelopes, (body, _proxy, request) => {
      for (const site of sites.filter(({ routes }) => routes.includes(request.route)))
        atSite(body, site.path, (holder, name) => {
          holder[`x_${respelled(name)}`] = retyped(holder[name]);
        });
    }),
  },
];
