/** The catalogue's matrix: a row per candidate, its origin (an operator at a site, by hand, or first sight), and the summary line. */
import { firstSightNames, generatedNames } from './catalogue.ts';
import { operatorTwins } from './operators.ts';
import type { Outcome } from './outcome.ts';

/** The candidates an operator makes at a site, mutants and twins: the others were written by hand, for what no operator generates. */
const fromOperators = new Set([...generatedNames, ...operatorTwins.map(({ name }) => name)]);

/** Where a candidate comes from, by its name without what a run adds to it (`@seed`, `:selected`). */
export function originOf(name: string): 'operator' | 'by hand' | 'first sight' | '-' {
  const candidate = name.replace(/[@:].*$/, '');
  if (candidate === 'sandbox') return '-';
  return fromOperators.has(candidate) ? 'operator' : firstSightNames.has(candidate) ? 'first sight' : 'by hand';
}

export function formatMatrix(outcomes: Outcome[]): string {
  const rows = outcomes.map((outcome) => [
    outcome.name,
    originOf(outcome.name),
    outcome.clause ?? 'benign',
    String(outcome.seed),
    outcome.checked,
    outcome.verdict,
    outcome.failedClauses.join(' ') || '-',
    resultOf(outcome),
  ]);
  const header = ['mutant', 'from', 'expected clause', 'seed', 'tests run', 'verdict', 'clauses failed', 'result'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  const problems = outcomes
    .filter((outcome) => !outcome.asExpected)
    .map((outcome) => `  ${outcome.name}: ${outcome.problem ?? 'see the report'} (${outcome.reportDir})`);
  return [line(header), ...rows.map(line), ...(problems.length ? ['', 'problems:', ...problems] : []), '', summaryLine(outcomes)].join('\n');
}

function resultOf(outcome: Outcome): string {
  if (outcome.unreached) return 'UNREACHED';
  if (outcome.notRun.length > 0) return 'NOT RUN';
  // A benign variant's fifth of its tests may meet none that fires it, where the run that learned reach saw it fire.
  if (outcome.effects === 0 && !outcome.asExpected) return 'NO EFFECT';
  if (!outcome.clause) return outcome.asExpected ? 'conformant' : 'FLAGGED';
  if (outcome.collateral.length > 0) return `COLLATERAL ${outcome.collateral.join(' ')}`;
  return outcome.asExpected ? 'killed' : 'SURVIVED';
}

export function summaryLine(outcomes: Outcome[]): string {
  const ofKind = (mutant: boolean) => outcomes.filter((outcome) => (outcome.clause !== null) === mutant);
  const count = (list: Outcome[]) => `${list.filter((outcome) => outcome.asExpected).length}/${list.length}`;
  const byOrigin = (list: Outcome[]) =>
    `(from operators ${count(list.filter(({ name }) => originOf(name) === 'operator'))}, by hand ${count(list.filter(({ name }) => originOf(name) === 'by hand'))}, first sight ${count(list.filter(({ name }) => originOf(name) === 'first sight'))})`;
  return `mutants killed: ${count(ofKind(true))} ${byOrigin(ofKind(true))}, benign conformant: ${count(ofKind(false))} ${byOrigin(ofKind(false))}`;
}
