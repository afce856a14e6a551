/** Reading the JSON files a user hands the runner (profiles, baselines), with one-line errors. */
import { readFileSync } from 'node:fs';
import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js';

const Ajv2020 = Ajv2020Module.default;
const ajv = new Ajv2020({ allErrors: false });

/**
 * A reader of one kind of file: it parses the file, checks it against the schema and throws
 * `new ErrorClass("<what> <file>: <where> <problem>")` on the first problem.
 */
export function jsonFileReader<T>(what: string, schema: object, ErrorClass: new (message: string) => Error): (file: string | URL) => T {
  // Compiled on first use: the specs import the profile reader's module but never read a profile.
  let validate: ValidateFunction<T> | undefined;
  return (file) => {
    validate ??= ajv.compile<T>(schema);
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ErrorClass(`${what} ${file}: ${(error as Error).message}`);
    }
    if (!validate(value)) {
      const [problem] = validate.errors ?? [];
      const where = problem?.instancePath || '(top level)';
      const extra = problem?.params && 'additionalProperty' in problem.params ? ` "${problem.params.additionalProperty}"` : '';
      throw new ErrorClass(`${what} ${file}: ${where} ${problem?.message ?? `is not a ${what}`}${extra}`);
    }
    return value;
  };
}
