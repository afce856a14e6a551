/**
 * Input partitions: every field of every request the suite can send (the reference's operations and
 * the test helpers, bodies and path parameters) gets the partitions of its type, from one table keyed
 * by type and format, so that a field the schemas gain brings its obligations by itself. A value sent
 * falls into partitions (classifyValue); the run's record of what it sent (src/harness/ledger.ts)
 * shows which partitions were sent and which were not (src/report/input-coverage.ts).
 */
import { loadSchema, type JsonSchema, type SchemaFile } from './schemas.ts';
import { operations, type OperationName } from './operations.ts';

export interface InputField {
  operation: OperationName;
  /** "payment.customer.uuid", "redirects[].url", or a path parameter as the path writes it: "{uuid}". */
  field: string;
  schema: JsonSchema;
  required: boolean;
  partitions: string[];
}

/** Where a value is missing from the object that holds it, and where it is null. */
const presence = ['absent', 'null'];
const stringLengths = ['empty', 'one character', 'past 255 characters', 'non-Latin script'];
const uuidForms = ['small letters', 'capitals', 'not a UUID'];
const urlForms = ['http', 'https', 'custom scheme', 'with a port', 'with a query', 'scheme in capitals', 'not a URL'];
const instantForms = ['Z', 'ahead of UTC', 'behind UTC', 'fraction of a second', 'not an instant'];
const integerForms = ['0', '1', 'negative', 'cents 01-09', 'whole units', 'past 2^31', 'not whole'];
const arrayForms = ['empty', 'one', 'several', 'duplicates'];
const listedForms = (values: readonly string[]) => [...values.map((value) => `"${value}"`), 'a listed value in other letters', 'another value'];

/** The partitions of a field's type: the one table. */
export function partitionsOf(schema: JsonSchema): string[] {
  const type = typeOf(schema);
  const listed = listedValues(schema);
  const own = (() => {
    if (type === 'boolean') return ['true', 'false'];
    if (type === 'integer' || type === 'number') return integerForms;
    if (type === 'array') return arrayForms;
    if (type === 'object') return ['empty object', 'with fields'];
    if (listed) return [...listedForms(listed), ...(schema.const === undefined && schema.enum === undefined ? stringLengths : [])];
    if (schema.format === 'uuid') return [...uuidForms, 'empty'];
    if (schema.format === 'uri') return [...urlForms, 'past 255 characters', 'empty'];
    if (schema.format === 'date-time') return instantForms;
    if (typeof schema.pattern === 'string') return ['matches its pattern', 'breaks its pattern', ...stringLengths];
    return stringLengths;
  })();
  return [...presence, ...own, 'another JSON type'];
}

/** The partitions a value (present, or undefined where absent) falls into, for a field of that schema. */
export function classifyValue(schema: JsonSchema, value: unknown): string[] {
  if (value === undefined) return ['absent'];
  if (value === null) return ['null'];
  const type = typeOf(schema);
  const listed = listedValues(schema);
  const found: string[] = [];
  const jsonType = Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
  const typeFits = jsonType === type || (type === 'number' && jsonType === 'integer') || (type === 'integer' && jsonType === 'number');
  if (!typeFits) return ['another JSON type'];
  if (typeof value === 'boolean') found.push(String(value));
  if (typeof value === 'number') found.push(...integerPartitions(value));
  if (Array.isArray(value)) {
    found.push(value.length === 0 ? 'empty' : value.length === 1 ? 'one' : 'several');
    if (new Set(value.map((item) => JSON.stringify(item))).size < value.length) found.push('duplicates');
  }
  if (type === 'object' && typeof value === 'object') found.push(Object.keys(value).length === 0 ? 'empty object' : 'with fields');
  if (typeof value === 'string') {
    if (listed) {
      if (listed.includes(value)) found.push(`"${value}"`);
      else if (listed.some((one) => one.toLowerCase() === value.toLowerCase() || value.toLowerCase().startsWith(one.toLowerCase()))) {
        found.push('a listed value in other letters');
      } else found.push('another value');
      if (schema.const === undefined && schema.enum === undefined) found.push(...lengthPartitions(value));
    } else if (schema.format === 'uuid') found.push(...uuidPartitions(value));
    else if (schema.format === 'uri') found.push(...urlPartitions(value));
    else if (schema.format === 'date-time') found.push(...instantPartitions(value, schema));
    else {
      // A card number the record masked (src/core/evidence.ts) stands for the digits it hid.
      const unmasked = value.replace(/^\*{12}(?=\d{4}$)/, '000000000000');
      if (typeof schema.pattern === 'string') found.push(new RegExp(schema.pattern, 'u').test(unmasked) ? 'matches its pattern' : 'breaks its pattern');
      found.push(...lengthPartitions(value));
    }
  }
  return found;
}

function integerPartitions(value: number): string[] {
  if (!Number.isInteger(value)) return ['not whole'];
  const found = value === 0 ? ['0'] : value === 1 ? ['1'] : value < 0 ? ['negative'] : [];
  if (value > 0 && value % 100 >= 1 && value % 100 <= 9) found.push('cents 01-09');
  if (value >= 100 && value % 100 === 0) found.push('whole units');
  if (value > 2 ** 31 - 1) found.push('past 2^31');
  return found;
}

function lengthPartitions(value: string): string[] {
  const length = [...value].length;
  const found = length === 0 ? ['empty'] : length === 1 ? ['one character'] : length > 255 ? ['past 255 characters'] : [];
  if (/[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(value)) found.push('non-Latin script');
  return found;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidPartitions(value: string): string[] {
  if (value === '') return ['empty'];
  if (!uuidPattern.test(value)) return ['not a UUID'];
  return [/[A-F]/.test(value) ? 'capitals' : 'small letters'];
}

function urlPartitions(value: string): string[] {
  if (value === '') return ['empty'];
  if (!URL.canParse(value)) return ['not a URL'];
  const url = new URL(value);
  const scheme = value.slice(0, value.indexOf(':'));
  const found = url.protocol === 'http:' ? ['http'] : url.protocol === 'https:' ? ['https'] : ['custom scheme'];
  if (url.port !== '') found.push('with a port');
  if (url.search !== '') found.push('with a query');
  if (scheme !== scheme.toLowerCase()) found.push('scheme in capitals');
  if (value.length > 255) found.push('past 255 characters');
  return found;
}

function instantPartitions(value: string, schema: JsonSchema): string[] {
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return ['not an instant'];
  const offset = /(Z|[+-]\d{2}(?::?\d{2})?)$/.exec(value)?.[1] ?? '';
  const found = offset === 'Z' || /^[+-]00:?00$/.test(offset) ? ['Z'] : offset.startsWith('+') ? ['ahead of UTC'] : ['behind UTC'];
  if (/T\d{2}:\d{2}:\d{2}\.\d/.test(value)) found.push('fraction of a second');
  return found;
}

/** The values the documents list for a field: its const, its enum, or the values they show (x-seen). */
function listedValues(schema: JsonSchema): string[] | null {
  if (typeof schema.const === 'string') return [schema.const];
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) return schema.enum as string[];
  if (Array.isArray(schema['x-seen'])) return schema['x-seen'] as string[];
  return null;
}

function typeOf(schema: JsonSchema): string {
  if (typeof schema.type === 'string') return schema.type;
  if (schema.const !== undefined || schema.enum !== undefined) return 'string';
  if (schema.properties) return 'object';
  return 'string';
}

/** A schema with its $ref followed (within its file or to another), its own keywords kept beside the target's. */
function resolved(schema: JsonSchema, file: SchemaFile): { schema: JsonSchema; file: SchemaFile } {
  if (typeof schema.$ref !== 'string') return { schema, file };
  const [refFile, pointer = ''] = schema.$ref.split('#');
  const targetFile = (refFile || file) as SchemaFile;
  let target: unknown = loadSchema(targetFile);
  for (const step of pointer.split('/').filter(Boolean)) target = (target as JsonSchema)[step];
  const { $ref: _ref, ...own } = schema;
  return resolved({ ...(target as JsonSchema), ...own }, targetFile);
}

/** The properties of an object schema and of every branch of its oneOf (a body of one of several shapes). */
function propertiesOf(schema: JsonSchema, file: SchemaFile): { properties: Record<string, JsonSchema>; required: Set<string>; file: SchemaFile }[] {
  const own = { properties: (schema.properties ?? {}) as Record<string, JsonSchema>, required: new Set((schema.required ?? []) as string[]), file };
  const branches = ((schema.oneOf ?? []) as JsonSchema[]).map((branch) => resolved(branch, file));
  return [own, ...branches.flatMap((branch) => propertiesOf(branch.schema, branch.file))];
}

function fieldsOf(operation: OperationName, schema: JsonSchema, file: SchemaFile, path: string, required: boolean): InputField[] {
  const here = resolved(schema, file);
  // An element of an array is never absent from it.
  const partitions = partitionsOf(here.schema).filter((partition) => !(path.endsWith('[]') && partition === 'absent'));
  const field: InputField[] = path === '' ? [] : [{ operation, field: path, schema: here.schema, required, partitions }];
  if (typeOf(here.schema) === 'array' && here.schema.items) {
    return [...field, ...fieldsOf(operation, here.schema.items as JsonSchema, here.file, `${path}[]`, true)];
  }
  const children = new Map<string, InputField[]>();
  for (const { properties, required: needed, file: inFile } of propertiesOf(here.schema, here.file)) {
    for (const [name, child] of Object.entries(properties)) {
      const childPath = path === '' ? name : `${path}.${name}`;
      const found = fieldsOf(operation, child, inFile, childPath, needed.has(name));
      const known = children.get(name);
      // A field that several branches of a oneOf share (method): the branch that lists its values.
      if (
        !known ||
        (found[0] && listedValues(found[0].schema) && (listedValues(found[0].schema)?.length ?? 0) > (listedValues(known[0].schema)?.length ?? 0))
      ) {
        children.set(name, found);
      }
    }
  }
  return [...field, ...[...children.values()].flat()];
}

/** The path parameter of each operation that has one, with its format where the documents give one. */
const pathParameters: Partial<Record<OperationName, JsonSchema>> = {
  listMethods: { type: 'string', format: 'uuid' },
};

/** Every field of every request the suite can send, each with the partitions of its type. */
export function inputFields(): InputField[] {
  return operations.flatMap((operation) => {
    const parameter = pathParameters[operation.name];
    const name = /\{(\w+)\}/.exec(operation.path)?.[0];
    const inPath: InputField[] =
      parameter && name
        ? [
            {
              operation: operation.name,
              field: name,
              schema: parameter,
              required: true,
              partitions: partitionsOf(parameter).filter((p) => !presence.includes(p)),
            },
          ]
        : [];
    if (!operation.request) return inPath;
    const [file, pointer = ''] = operation.request.split('#');
    return [...inPath, ...fieldsOf(operation.name, pointer ? { $ref: operation.request } : loadSchema(file as SchemaFile), file as SchemaFile, '', true)];
  });
}

/** The values a body holds at a field's path (several under an array), undefined where the object that would hold it lacks it. */
export function valuesAt(body: unknown, field: string): unknown[] {
  let holders: unknown[] = [body];
  const steps = field.split('.');
  for (const [index, step] of steps.entries()) {
    const last = index === steps.length - 1;
    const name = step.replace(/\[\]$/, '');
    const values = holders.flatMap((holder) =>
      holder !== null && typeof holder === 'object' && !Array.isArray(holder) ? [(holder as Record<string, unknown>)[name]] : [],
    );
    if (last && !step.endsWith('[]')) return values;
    holders = step.endsWith('[]') ? values.flatMap((value) => (Array.isArray(value) ? value : [])) : values.filter((value) => value !== undefined);
    if (last) return holders;
  }
  return holders;
}
