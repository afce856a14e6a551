/**
 * End to end, the mutant catalogue as `npm run mutants` runs it, and what proves its shortcuts
 * sound, all in one Playwright run (mutants/run.ts: runCandidates), so that they share its start and
 * fill each other's idle cores. `npm test` runs it after the other tests, alone: it keeps every core
 * busy for minutes.
 * - The catalogue: every candidate once, on this turn's seed (rotationOf), on the tests that reach it,
 *   a mutant's stopping at the first that fails its clause except on the turn that checks it fully, a
 *   benign variant's being a fifth of them, another each turn.
 * - Seeds: the same target gets the same verdict on every seed, since the input classes every run
 *   exercises decide it, not the draws. Each turn compares two seeds, its own and the next turn's
 *   (over five turns, every seed against its neighbours): the sandbox, the whole suite on both (on
 *   the catalogue's, the run that learns what reaches what, which is that run already); a
 *   variant whose references never start with 0 (the class that needs one is searched for, and the
 *   search says it never came), on the clause of that class; and a sample of mutants that turns with
 *   the commit, the tests of their clause up to the first that kills it.
 * - Selection: a sample of candidates, on this turn's seed, run both on the tests that reach them and
 *   on the whole suite. The selection kills each mutant on the clause the whole suite kills it on; the
 *   whole suite passes each benign variant as its selection does (so the tests left out of it did pass).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { benignSample, candidates, catalogueAsTested, onEverySeed, seedsOfTurn, rotationOf, seedSample, type Candidate } from '../../mutants/rotation.ts';
import { formatMatrix } from '../../mutants/matrix.ts';
import { outcomesByCandidate, seedDisagreements, type Outcome } from '../../mutants/outcome.ts';
import { runCandidates } from '../../mutants/run.ts';

const turn = rotationOf();
const seeds = seedsOfTurn(turn);
const catalogue = catalogueAsTested(turn);

const neverZero = candidates(turn).find((candidate) => candidate.name === 'references-never-start-with-zero')!;
const seedTargets: Candidate[] = [
  { name: 'sandbox', clause: null, disturbs: [], transform: {}, fullCheck: true, testsBy: 'clause' },
  { ...neverZero, clause: 'REF-2', fullCheck: true, testsBy: 'clause' },
];
const seedMutants = seedSample(turn).map((candidate): Candidate => ({ ...candidate, fullCheck: false, testsBy: 'clause' }));

// On the catalogue's seed, so that the suite on the sandbox that tells what reaches what runs once.
const selectionSample = [...seedSample(turn + 2, 2), ...benignSample(turn, 1)].map((candidate) => ({ ...candidate, seed: catalogue[0].seed }));

let outcomes: Outcome[] = [];
let matrix = '';
const outcomeOf = (name: string) => outcomes.find((outcome) => outcome.name === name)!;

before(
  async () => {
    outcomes = await runCandidates(
      [
        ...catalogue,
        ...onEverySeed([...seedTargets, ...seedMutants], seeds),
        ...selectionSample.map((candidate) => ({ ...candidate, name: `${candidate.name}:selected`, fullCheck: candidate.clause === null })),
        ...selectionSample.map((candidate): Candidate => ({ ...candidate, name: `${candidate.name}:whole-suite`, fullCheck: true, testsBy: 'whole suite' })),
      ],
      { turn },
    );
    matrix = `turn ${turn} of the rotation (npm run mutants -- --rotation ${turn} replays it)\n${formatMatrix(outcomes)}`;
  },
  { timeout: 65 * 60_000 },
);

test('every mutant is killed by its own clause alone, and every benign variant is conformant', () => {
  const mine = catalogue.map(({ name }) => outcomeOf(name));
  assert.ok(
    mine.every((outcome) => outcome.asExpected),
    matrix,
  );
});

test('two seeds, a different pair each turn, give the same verdict on the sandbox, conformant, on a target that never shows a rare class, and on a sample of mutants', () => {
  assert.deepEqual(seedDisagreements(outcomes), [], matrix);
  const byCandidate = outcomesByCandidate(outcomes);
  for (const target of seedTargets) {
    const mine = byCandidate.get(target.name) ?? [];
    assert.equal(mine.length, seeds.length, `${target.name} ran on every seed:\n${matrix}`);
    assert.ok(
      mine.every((outcome) => outcome.verdict === 'conformant'),
      `${target.name}:\n${matrix}`,
    );
  }
  for (const mutant of seedMutants) {
    const mine = byCandidate.get(mutant.name) ?? [];
    assert.equal(mine.length, seeds.length, `${mutant.name} ran on every seed:\n${matrix}`);
    assert.ok(
      mine.every((outcome) => outcome.asExpected),
      `${mutant.name}:\n${matrix}`,
    );
  }
});

test('the selected tests judge a sample of candidates as the whole suite does', () => {
  for (const { name, clause } of selectionSample) {
    const [bySelection, byWholeSuite] = [outcomeOf(`${name}:selected`), outcomeOf(`${name}:whole-suite`)];
    if (clause) {
      assert.ok(byWholeSuite.failedClauses.includes(clause), `the whole suite kills ${name} on ${clause}:\n${matrix}`);
      assert.ok(bySelection.asExpected, `its selected tests kill ${name} on ${clause} alone:\n${matrix}`);
    } else {
      assert.equal(byWholeSuite.verdict, 'conformant', `the whole suite passes ${name}:\n${matrix}`);
      assert.ok(bySelection.asExpected, `the tests that reach ${name} pass it too:\n${matrix}`);
    }
  }
});
