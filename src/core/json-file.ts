/** Reading the JSON files a user hands the runner (profiles, baselines), with one-line errors. */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { loadAjv } from './ajv.ts';

/**
 * A reader of one kind of file: it parses the file, checks it against the schema and throws
 * `new ErrorClass("<what> <file>: <where> <problem>; <where> <problem>…")` with every problem,
 * naming schemaName (the schema's path in the package) where given.
 */
export function jsonFileReader<T>(what: string, schema: object, ErrorClass: new (message: string) => Error, schemaName?: string): (file: string | URL) => T {
  // Compiled on first use: the specs import the profile reader's module but never read a profile.
  let validate: ValidateFunction<T> | undefined;
  return (file) => {
    // Every problem at once: a user fixes a file in one go, not one error per run.
    validate ??= new (loadAjv().Ajv2020)({ allErrors: true }).compile<T>(schema);
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ErrorClass(`${what} ${file}: ${(error as Error).message}`);
    }
    if (!validate(value)) {
      const problems = (validate.errors ?? []).map((problem) => {
        const extra = 'additionalProperty' in problem.params ? ` "${problem.params.additionalProperty}"` : '';
        return `${problem.instancePath || '(top level)'} ${problem.message ?? `is not a ${what}`}${extra}`;
      });
      const against = schemaName ? ` does not match ${schemaName} (${problems.length} problem${problems.length === 1 ? '' : 's'})` : '';
      throw new ErrorClass(`${what} ${file}${against}: ${problems.join('; ') || `is not a ${what}`}`);
    }
    return value;
  };
}
