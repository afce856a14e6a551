/**
 * A model of the whole service (src/model): random sequences of every operation, several customers,
 * checkouts and references alive at once, windows that close while other things happen, the webhook
 * set and moved while payments are pending. First, on every run, the sequences of
 * src/model/sequences.ts: the orders of operations a fault of interaction shows in, whatever the seed
 * draws. Each step is judged by the checks against what the model owes; a departure is shrunk by
 * fast-check to the shortest sequence that shows it, and that sequence, replayed, is the evidence.
 * Paying on the hosted page too: model-pages.spec.ts.
 */
import {
  combinationSequences,
  combinationsCovered,
  directedCommands,
  helperCommands,
  helperSequences,
  modelClauses,
  modelClausesWithoutHelpers,
} from '../src/model/index.ts';
import { exercises, helpersUsable, lastsEventMs, requires, tags, test } from '../src/harness/fixtures.ts';
import { defaultModelRuns, modelTimeoutMs, runModel } from '../src/harness/model-run.ts';

test.describe('a model of the whole service', { tag: lastsEventMs }, () => {
  test(
    'random sequences of every operation, judged step by step against the model',
    {
      tag: tags(...modelClauses),
      annotation: helperSequences.flatMap((sequence) => sequence.classes).flatMap(({ clause, name }) => exercises(clause, name as never)),
    },
    async ({ run, api, receiver, interbank, property, observe, target }) => {
      void interbank;
      const runs = run.modelRuns ?? defaultModelRuns;
      // A mutant of the catalogue (a target with a clause to fail) needs the proof, not the coverage: the combinations' rows are for targets nobody has seen.
      const proofOnly = Boolean(target?.clause);
      const sequences = proofOnly ? helperSequences.filter((sequence) => !combinationSequences.includes(sequence)) : helperSequences;
      test.setTimeout(modelTimeoutMs(runs + sequences.length));
      if (!proofOnly) await observe.record(`dimensions combined 3-way, every row run: ${combinationsCovered.join('; ')}`, combinationsCovered);
      await runModel(run, api, receiver, property, observe, { helpers: true, runs, directed: directedCommands(sequences, run.seed) });
    },
  );

  test(
    'without test helpers: random sequences of the four operations',
    { tag: tags(...modelClausesWithoutHelpers) },
    async ({ run, api, receiver, property, observe }) => {
      test.skip(helpersUsable(run), 'the target has test helpers: the whole model runs instead');
      requires(run, 'stateful');
      await observe.record(`commands left out (target has no test helpers): ${helperCommands.join(', ')}`, helperCommands);
      const runs = run.modelRuns ?? defaultModelRuns;
      test.setTimeout(modelTimeoutMs(runs));
      await runModel(run, api, receiver, property, observe, { helpers: false, runs });
    },
  );
});
