/**
 * The validators: compiled at npm run generate (ajv's standalone code in schemas/generated/), or by
 * ajv where a schema changed since. ajv loads only when first asked for: it takes about 60 ms to
 * load, and most processes never compile a schema.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type Ajv2020Module from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import type * as ajvModule from 'ajv';

/** A validator, compiled now by ajv or at npm run generate as ajv's standalone code: its verdict, and its errors after a false one. */
export type Validator = ((value: unknown) => boolean) & { errors?: ajvModule.ErrorObject[] | null };

/** ajv and ajv-formats: both CommonJS, module.exports is the default. */
export function loadAjv() {
  const require = createRequire(import.meta.url);
  const { _, str } = require('ajv') as typeof ajvModule;
  return {
    Ajv2020: (require('ajv/dist/2020.js') as typeof Ajv2020Module).default,
    addFormats: (require('ajv-formats') as typeof addFormatsModule).default,
    _,
    str,
  };
}

/** What names the schemas a validator was compiled from: one compiled at npm run generate is used only for the very schemas it was compiled from. */
export const digestOf = (schemas: object) => createHash('sha256').update(JSON.stringify(schemas)).digest('hex');
