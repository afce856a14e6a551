/** Reading the JSON files a user hands the runner (profiles, baselines), with one-line errors. */
import { readFileSync } from 'node:fs';
import { digestOf, loadAjv, type Validator } from './ajv.ts';
import { fileValidators } from '../../schemas/generated/file-validators.ts';

/** Every problem at once: a user fixes a file in one go, not one error per run. */
export const fileSchemaOptions = { allErrors: true } as const;

/**
 * A reader of one kind of file: it parses the file, checks it against the schema and throws
 * `new ErrorClass("<what> <file>: <where> <problem>; <where> <problem>…")` with every problem,
 * naming schemaName (the schema's path in the package) where given.
 */
export function jsonFileReader<T>(what: string, schema: object, ErrorClass: new (message: string) => Error, schemaName?: string): (file: string | URL) => T {
  // Looked up on first use: the specs import the profile reader's module but never read a profile. One that
  // npm run generate did not compile (a schema changed since) is compiled here.
  let validate: Validator | undefined;
  return (file) => {
    validate ??= fileValidators[digestOf(schema) as keyof typeof fileValidators] ?? new (loadAjv().Ajv2020)(fileSchemaOptions).compile(schema);
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
    return value as T;
  };
}
