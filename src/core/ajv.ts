/**
 * ajv, loaded when first asked for: it takes about 60 ms to load, and most processes that import the
 * schemas or the file readers never compile a schema (the validators of schemas/ come compiled, from
 * schemas/generated/validators.ts). Both packages are CommonJS: module.exports is the default.
 */
import { createRequire } from 'node:module';
import type Ajv2020Module from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import type * as ajvModule from 'ajv';

/** A validator, compiled now by ajv or at npm run generate as ajv's standalone code: its verdict, and its errors after a false one. */
export type Validator = ((value: unknown) => boolean) & { errors?: ajvModule.ErrorObject[] | null };

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
