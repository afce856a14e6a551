/** A class of input a clause allows or forbids: named for the report, drawn by an arbitrary; src/generators/classes.ts lists them per clause. */
import type fc from 'fast-check';

export interface InputClass<T = unknown> {
  /** How the report names the class: "amount 2^31", "createRegistration with lower-case cc". */
  name: string;
  arbitrary: fc.Arbitrary<T>;
  /** Where the reference leaves the input to the target: the INFO clause a refusal is recorded under (else the target must take it). */
  mayBeRefused?: 'CHK-13' | 'SEC-2' | 'REF-10';
}

export const inputClass = <T>(name: string, arbitrary: fc.Arbitrary<T>, mayBeRefused?: InputClass['mayBeRefused']): InputClass<T> => ({
  name,
  arbitrary,
  ...(mayBeRefused && { mayBeRefused }),
});
