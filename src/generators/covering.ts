/**
 * Covering arrays: few rows that hold every combination of `strength` dimensions' levels (every
 * pair, every triple…) that some allowed row holds. A fault that needs three choices to meet shows in
 * one of the rows, whichever three, without running every product.
 */

export type Dimensions = Record<string, readonly string[]>;
export type Row<D extends Dimensions> = { [K in keyof D]: D[K][number] };

export interface CoveringArray<D extends Dimensions> {
  rows: Row<D>[];
  /** How many combinations of `strength` levels the rows cover: every one an allowed row holds. */
  combinations: number;
  strength: number;
}

/** Rows past which the product of the dimensions is too large to enumerate (dimensions of the reference stay far below it). */
const enumerableRows = 100_000;

function subsetsOf(size: number, of: number): number[][] {
  if (size === 0) return [[]];
  if (of < size) return [];
  return [...subsetsOf(size, of - 1), ...subsetsOf(size - 1, of - 1).map((subset) => [...subset, of - 1])];
}

/**
 * A covering array of the given strength, greedily: of every allowed row, the one that covers the
 * most combinations not yet covered, until none is left (ties go to the first in the product's order,
 * so the array is the same on every run).
 */
export function coveringArray<D extends Dimensions>(dimensions: D, strength: number, allowed: (row: Row<D>) => boolean = () => true): CoveringArray<D> {
  const names = Object.keys(dimensions) as (keyof D & string)[];
  const sizes = names.map((name) => dimensions[name].length);
  if (sizes.reduce((product, size) => product * size, 1) > enumerableRows) throw new Error(`the product of ${names.join(', ')} is too large to enumerate`);
  const rowOf = (levels: number[]) => Object.fromEntries(names.map((name, at) => [name, dimensions[name][levels[at]]])) as Row<D>;
  let product: number[][] = [[]];
  for (const size of sizes) product = product.flatMap((levels) => Array.from({ length: size }, (_, level) => [...levels, level]));
  const subsets = subsetsOf(Math.min(strength, names.length), names.length);
  // Each combination a candidate holds, numbered: the greedy loop below counts them millions of times.
  const numbers = new Map<string, number>();
  const numberOf = (combination: string) => numbers.get(combination) ?? numbers.set(combination, numbers.size).get(combination)!;
  const candidates = product
    .filter((levels) => allowed(rowOf(levels)))
    .map((levels) => ({ levels, combinations: subsets.map((subset) => numberOf(subset.map((at) => `${at}=${levels[at]}`).join(' '))) }));
  const combinations = numbers.size;
  const uncovered = new Uint8Array(combinations).fill(1);
  let left = combinations;
  const rows: Row<D>[] = [];
  while (left > 0) {
    let best = candidates[0];
    let bestGain = -1;
    for (const candidate of candidates) {
      let gain = 0;
      for (const combination of candidate.combinations) gain += uncovered[combination];
      if (gain > bestGain) [best, bestGain] = [candidate, gain];
      // Every candidate holds as many combinations: none after one that covers all of its own gains more.
      if (gain === candidate.combinations.length) break;
    }
    for (const combination of best.combinations) {
      left -= uncovered[combination];
      uncovered[combination] = 0;
    }
    rows.push(rowOf(best.levels));
  }
  return { rows, combinations, strength };
}

/** How the report names an array: its dimensions and their levels, and how many rows cover how many combinations. */
export function describeCovering(dimensions: Dimensions, array: CoveringArray<Dimensions>): string {
  const listed = Object.entries(dimensions).map(([name, levels]) => `${name} (${levels.join(', ')})`);
  return `${listed.join(' × ')}: ${array.rows.length} rows cover all ${array.combinations} ${array.strength}-way combinations`;
}
