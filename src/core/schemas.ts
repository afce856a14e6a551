import type { ClauseId } from '../../schemas/generated/clause-ids.ts';
import { readFileSync } from 'node:fs';
import { packageRoot } from './package-root.ts';
import type { ErrorObject } from 'ajv';
import { digestOf, loadAjv, type Validator } from './ajv.ts';
import {
  operationNamed,
  operations,
  testHelperSchemaFile,
  uuidPattern,
  versionedEnvelope,
  type JsonSchema,
  type OperationName,
  type RequestBodies,
} from './operations.ts';
import { compiledFrom, validators as generatedValidators } from '../../schemas/generated/validators.ts';

export { testHelperSchema, testHelperSchemaFile, versionedEnvelope, type JsonSchema } from './operations.ts';

export const schemaDir = new URL('schemas/', packageRoot);

/** The resource schemas of section 2 of the reference, by file name: each field names its clauses (x-clauses). */
export const referenceSchemaFiles = [
  'envelope.schema.json',
  'checkout-request.schema.json',
  'checkout.schema.json',
  'stored-payment-method.schema.json',
  'reference-request.schema.json',
  'payment.schema.json',
] as const;

export const schemaFiles = [...referenceSchemaFiles, testHelperSchemaFile] as const;
export type SchemaFile = (typeof schemaFiles)[number];

const loaded = new Map<SchemaFile, JsonSchema>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A schema file, read once and frozen: every caller shares it, and none may change it. */
export function loadSchema(file: SchemaFile): JsonSchema {
  let schema = loaded.get(file);
  if (!schema) loaded.set(file, (schema = deepFreeze(JSON.parse(readFileSync(new URL(file, schemaDir), 'utf8')) as JsonSchema)));
  return schema;
}

/** A file whose root has no type of its own only gathers its $defs (test-helpers.schema.json). */
export const gathersOnlyDefs = (schema: JsonSchema) => !('type' in schema);

/** The schemas a file names, by "file#pointer": its root, unless it only gathers $defs, and each $defs entry. */
export function namedSchemas(file: SchemaFile): [ref: string, schema: JsonSchema][] {
  const root = loadSchema(file);
  const defs = Object.entries((root.$defs ?? {}) as Record<string, JsonSchema>).map(([name, def]): [string, JsonSchema] => [`${file}#/$defs/${name}`, def]);
  return gathersOnlyDefs(root) ? defs : [[`${file}#`, root], ...defs];
}

/** A schema violation, named against the clauses the failing keyword serves. */
export interface SchemaProblem {
  path: string;
  /** The JSON Schema keyword that failed: required, type, pattern… */
  keyword: string;
  expected: string;
  actual: unknown;
  clauses: ClauseId[];
}

/**
 * ajv with the schemas of schemas/ and their keywords. `forStandaloneCode`: for npm run generate,
 * which writes the validators out as code (schemas/generated/validators.ts), formats taken from a
 * `formats` object that code declares.
 */
export function createAjv(options: { forStandaloneCode?: boolean } = {}) {
  const { Ajv2020, addFormats, _, str } = loadAjv();
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true,
    allErrors: true,
    verbose: true,
    discriminator: true,
    ...(options.forStandaloneCode && { code: { source: true, esm: true, formats: _`formats` } }),
  });
  addFormats(ajv);
  // An e-mail address by RFC 5322 and RFC 6531 may quote its local part and hold letters beyond ASCII,
  // which ajv-formats' pattern refuses: only what is no address at all breaks CHK-11.
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  // A UUID is its string representation of RFC 9562 section 4, in either letter case; ajv-formats also
  // takes it as a URN (urn:uuid:…), which is another representation and no UUID string.
  ajv.addFormat('uuid', uuidPattern);
  ajv.addKeyword({ keyword: 'x-clauses', schemaType: 'array' });
  // The values the reference shows for a field that takes others too: examples, never a rule (src/core/partitions.ts sends each).
  ajv.addKeyword({ keyword: 'x-seen', schemaType: 'array' });
  // The clause that owns a field's being distinct over the resources that carry it (what mutants/operators.ts repeats).
  ajv.addKeyword({ keyword: 'x-distinct', schemaType: 'string' });
  // A timestamp that must not be earlier than the sibling property it names (validDate.end); a value that is no timestamp is the format's concern.
  ajv.addKeyword({
    keyword: 'x-not-before',
    schemaType: 'string',
    error: { message: ({ schema }) => str`must not be earlier than ${schema}`, params: ({ schema }) => _`{sibling: ${schema}}` },
    code(cxt) {
      const { data, schema, it } = cxt;
      const sibling = _`${it.parentData}?.[${schema}]`;
      cxt.fail(_`typeof ${data} == "string" && typeof ${sibling} == "string" && Date.parse(${data}) < Date.parse(${sibling})`);
    },
  });
  for (const file of schemaFiles) ajv.addSchema(loadSchema(file));
  for (const { name, answer } of operations) if (typeof answer === 'object' && answer !== null) ajv.addSchema(answer, answerSchemaId(name));
  return ajv;
}

/** The id an operation's answer schema that is composed in operations.ts (not a file of schemas/) is known by. */
const answerSchemaId = (name: OperationName) => `answer-${name}.schema.json`;

/**
 * Every schema the suite validates against, by its $ref: what npm run generate compiles ahead.
 * Each schema comes before those that refer to it: ajv's standalone code declares a validator a
 * second time where it is exported after another export used it.
 */
export function validatedSchemaRefs(): string[] {
  const operationRefs = operations.flatMap(({ name, request, answer }) => [
    ...(request ? [request] : []),
    ...(typeof answer === 'string' ? [answer] : answer ? [answerSchemaId(name)] : []),
  ]);
  return [...new Set(['envelope.schema.json', ...referenceSchemaFiles, versionedEnvelope, ...operationRefs])];
}

function describeExpectation(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `property "${String(params.missingProperty)}" to be present`;
    case 'const':
      return `the value ${JSON.stringify(params.allowedValue)}`;
    case 'enum':
      return `one of ${JSON.stringify(params.allowedValues)}`;
    case 'type':
      return `a value of type ${String(params.type)}`;
    case 'pattern':
      return `a string matching ${String(params.pattern)}`;
    case 'format':
      return `a string in format "${String(params.format)}"`;
    case 'contains':
      return `an array with an element matching ${JSON.stringify(error.schema)}`;
    default:
      return error.message ?? error.keyword;
  }
}

function clausesOf(node: unknown): ClauseId[] | undefined {
  const clauses = (node as JsonSchema | undefined)?.['x-clauses'];
  return Array.isArray(clauses) && clauses.length > 0 ? (clauses as ClauseId[]) : undefined;
}

const schemasById = new Map<string, JsonSchema>(schemaFiles.map((file) => [file, loadSchema(file)]));

function resolvePointer(root: JsonSchema, pointer: string): JsonSchema[] {
  const trail = [root];
  let node: unknown = root;
  for (const token of pointer.split('/').filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node && typeof node === 'object') trail.push(node as JsonSchema);
  }
  return trail;
}

interface Located {
  node: JsonSchema;
  base: string;
}

/** The node itself and every schema it stands for or branches into, through $ref, allOf, oneOf and anyOf. */
function expand(located: Located, depth = 0): Located[] {
  const { node, base } = located;
  const out: Located[] = [located];
  if (depth > 8) return out;
  if (typeof node.$ref === 'string') {
    const [id, pointer = ''] = node.$ref.split('#');
    const target = id || base;
    const targetRoot = schemasById.get(target);
    if (targetRoot) out.push(...expand({ node: resolvePointer(targetRoot, pointer).pop()!, base: target }, depth + 1));
  }
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((keyword) => (node[keyword] as JsonSchema[] | undefined) ?? []);
  for (const part of parts) out.push(...expand({ node: part, base }, depth + 1));
  return out;
}

/** The deepest x-clauses met when walking the schema along the value's path. */
function clausesAtInstancePath(root: Located, instancePath: string): ClauseId[] | undefined {
  let frontier = expand(root);
  let found = frontier.map((l) => clausesOf(l.node)).find(Boolean);
  for (const token of instancePath.split('/').filter(Boolean)) {
    const next: Located[] = [];
    for (const { node, base } of frontier) {
      const property = (node.properties as Record<string, JsonSchema> | undefined)?.[token];
      if (property) next.push({ node: property, base });
      if (/^[0-9]+$/.test(token) && node.items) next.push({ node: node.items as JsonSchema, base });
    }
    frontier = next.flatMap((located) => expand(located));
    found = frontier.map((l) => clausesOf(l.node)).find(Boolean) ?? found;
  }
  return found;
}

/**
 * A broken rule (rules 1 and 3 of 2.2) is reported against the rule's clauses, found along the
 * schema path; a broken field against the field's, found along the value's path, since a shared
 * definition (a timestamp, say) serves different clauses where it is used.
 */
function clausesFor(error: ErrorObject, root: Located): ClauseId[] {
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    const property = ((error.parentSchema as JsonSchema | undefined)?.properties as Record<string, unknown> | undefined)?.[missing];
    const own = clausesOf(property);
    if (own) return own;
  }
  const [id, pointer = ''] = error.schemaPath.split('#');
  const inRule = !id && /^\/allOf\/[0-9]+\/(if|then|else)\//.test(pointer);
  const ruleClauses = inRule ? resolvePointer(root.node, pointer).map(clausesOf).filter(Boolean).pop() : undefined;
  return ruleClauses ?? clausesAtInstancePath(root, error.instancePath) ?? [];
}

function toProblems(errors: ErrorObject[] | null | undefined, root: Located): SchemaProblem[] {
  const all = errors ?? [];
  // "if", "oneOf", "anyOf" and "discriminator" only say that a subschema failed or none was chosen; the
  // subschema's own errors, or the tag's, carry the detail.
  const summaries = new Set(['if', 'oneOf', 'anyOf', 'discriminator']);
  // The reverse for "contains": its own error names the array; the errors of the elements it tried do not.
  const detailed = all.filter((error) => !summaries.has(error.keyword) && !error.schemaPath.includes('/contains/'));
  const problems = (detailed.length > 0 ? detailed : all).map((error) => ({
    path: error.instancePath === '' ? '/' : error.instancePath,
    keyword: error.keyword,
    expected: describeExpectation(error),
    actual: error.keyword === 'required' ? undefined : error.data,
    clauses: clausesFor(error, root),
  }));
  // A schema that includes another (the versioned envelope includes the envelope) reports the same
  // violation once for each.
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.path} ${problem.expected}`;
    return !seen.has(key) && seen.add(key);
  });
}

/** The digest of every schema validated against (digestOf). */
export function schemasDigest(): string {
  const answers = operations.flatMap(({ name, answer }) => (typeof answer === 'object' && answer !== null ? [[answerSchemaId(name), answer]] : []));
  return digestOf(Object.fromEntries([...schemaFiles.map((file) => [file, loadSchema(file)]), ...answers]));
}

let shared: ReturnType<typeof createAjv> | undefined;
const compiled = new Map<string, Validator>();
// Where a schema changed since npm run generate, every validator is compiled here instead.
const precompiled = new Map<string, Validator>(compiledFrom === schemasDigest() ? Object.entries(generatedValidators) : []);

function validate(ref: string, root: Located, value: unknown): SchemaProblem[] {
  let validator = precompiled.get(ref) ?? compiled.get(ref);
  if (!validator) {
    shared ??= createAjv();
    const compiledNow = shared.getSchema(ref);
    if (!compiledNow) throw new Error(`no schema at ${ref}`);
    compiled.set(ref, (validator = compiledNow));
  }
  return validator(value) ? [] : toProblems(validator.errors, root);
}

/** Validates an answer of one operation; no problems means it is shaped as the reference or the contract shows it. */
export function validateResponse(name: OperationName, value: unknown): SchemaProblem[] {
  const { answer } = operationNamed(name);
  if (answer === null) throw new Error(`${name} has no answer schema`);
  if (typeof answer === 'string') return validateResource(answer, value);
  return validate(answerSchemaId(name), { node: answer, base: '' }, value);
}

/** Validates the body of a call of one operation against its schema, rules 1 and 3 of 2.2 included. */
export function validateRequest(name: keyof RequestBodies, value: unknown): SchemaProblem[] {
  const { request } = operationNamed(name);
  if (request === null) throw new Error(`${name} takes no body`);
  return validateResource(request, value);
}

/** Validates a value against one resource schema: a file name, or a file name and a #/$defs pointer. */
export function validateResource(ref: string, value: unknown): SchemaProblem[] {
  const [id, pointer = ''] = ref.split('#');
  const file = schemasById.get(id);
  if (!file) throw new Error(`no schema named ${id}`);
  const node = resolvePointer(file, pointer).pop()!;
  return validate(ref, { node, base: id }, value);
}
