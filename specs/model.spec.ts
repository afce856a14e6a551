/**
 * A model of the whole service (src/model): random sequences of every operation, several customers,
 * checkouts and references alive at once, windows that close while other things happen, the webhook
 * set and moved while payments are pending. Each step is judged by the checks against what the model
 * owes; a departure is shrunk by fast-check to the shortest sequence that shows it, and that
 * sequence, replayed, is the evidence.
 */
import fc from 'fast-check';
import { card, wallet } from '../generators/index.ts';
import { Departure, finish, startModel, helperCommands, modelCommands, RemoveWebhook, SetWebhook, type World } from '../src/model/index.ts';
import type { PaidWith } from '../src/checks/index.ts';
import type { RunConfig } from '../src/run-config.ts';
import { helperClient, helpersUsable, leftOut, requires, tags, test, type Api, type Property, type Receiver } from './fixtures.ts';
import { sample } from './flows.ts';
import { holdingWebhook } from './webhook-lock.ts';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** Sequences per run, where the run does not say (--model-runs): measured to add a few seconds to a run on the sandbox. */
export const defaultModelRuns = 8;
const maxCommands = 32;
/** What one sequence may take (short windows closing, notifications awaited), and how long shrinking a failing one may go on. */
const sequenceBudgetMs = 4000;
const shrinkBudgetMs = 30_000;

/**
 * How long the sequences may go on where all hold. Asked for a number of them (--model-runs), as
 * long as they take; by default, about as long as the run waits anyway (its waits for what must not
 * happen last eventMs), so that a target that answers slowly gets fewer sequences, not a longer run.
 */
function sequencesBudgetMs(run: RunConfig): number {
  if (run.modelRuns !== undefined) return Infinity;
  return Math.max(run.profile.timeouts.eventMs, defaultBudgetMs);
}
const defaultBudgetMs = 15_000;
/** Sequences that run whatever the budget, so that a slow target is still explored. */
const minimumModelRuns = 4;

/**
 * The run's cards and wallets, each used once, in order: their last three digits differ from every
 * other's (cards and wallets alike, and from 002, which every declined card ends with), so that a
 * method in a list tells which payment it came from, in whichever sequence.
 */
function meansOf(run: RunConfig): World['payWith'] {
  const payable = fc.oneof(card().map((paid): PaidWith => ({ method: 'CC', card: paid })), wallet().map((paid): PaidWith => ({ method: 'MW', wallet: paid })));
  const last3 = (paid: PaidWith) => (paid.method === 'CC' ? paid.card.number : paid.wallet.number).slice(-3);
  const pool = sample(run, fc.uniqueArray(payable.filter((paid) => last3(paid) !== '002'), { minLength: meansPerRun, maxLength: meansPerRun, selector: last3 }));
  const cards = pool.filter((paid) => paid.method === 'CC');
  const wallets = pool.filter((paid) => paid.method === 'MW');
  const declined = sample(run, fc.array(card({ declined: true }), { minLength: 64, maxLength: 64 }));
  let used = 0;
  return (method, isDeclined) => {
    used++;
    if (method === 'CC' && isDeclined) return { method, card: declined[used % declined.length] };
    const from = method === 'CC' ? cards : wallets;
    return from[used % from.length];
  };
}
/** More than the payments of a run of the catalogue's mutants (30 sequences). */
const meansPerRun = 600;

function worldOf(run: RunConfig, api: Api, receiver: Receiver, options: { helpers: boolean }): World {
  return {
    send: (request) => api.send(request),
    helpers: options.helpers ? helperClient(api) : null,
    receiver,
    eventMs: run.profile.timeouts.eventMs,
    payWith: meansOf(run),
    // Without helpers no customer can be registered: the profile's (what they have stored is theirs), else one the target never saw.
    outOfBandCustomers: options.helpers ? [] : (run.profile.customers ?? [randomUUID()]).slice(0, 2),
    note: (note, request) => api.note({ request: request ?? null, response: null, note }),
    now: () => Date.now(),
    sleep: (ms) => sleep(ms),
  };
}

/** Whether a command of a sequence (fast-check wraps each) sets or removes the webhook. */
function movesWebhook(command: unknown): boolean {
  const unwrapped = (command as { cmd?: unknown }).cmd ?? command;
  return unwrapped instanceof SetWebhook || unwrapped instanceof RemoveWebhook;
}

/** Runs the property: each sequence on a fresh model, its notifications judged at its end; the webhook it set removed. */
async function runModel(run: RunConfig, api: Api, receiver: Receiver, property: Property, helpers: boolean) {
  const world = worldOf(run, api, receiver, { helpers });
  const runs = run.modelRuns ?? defaultModelRuns;
  const deadline = Date.now() + sequencesBudgetMs(run);
  let departed = false;
  let started = 0;
  await property(
    modelCommands({ helpers, maxCommands }),
    async (commands) => {
      const model = await startModel(world);
      try {
        const sequence = async (): Promise<typeof leftOut | void> => {
          // Past the budget (the sequences run side by side, and those that move the webhook take turns), the rest are left out; a shrink runs them all.
          if (Date.now() > deadline && started >= minimumModelRuns && !departed) return leftOut;
          started++;
          try {
            await fc.asyncModelRun(() => ({ model, real: world }), commands);
            await finish(model, world);
          } finally {
            if (model.webhook) await world.helpers?.removeWebhook();
          }
        };
        // The webhook is one setting of the whole target: only a sequence that moves it takes turns with the webhook specs.
        if ((await ([...commands].some(movesWebhook) ? holdingWebhook(run, sequence) : sequence())) === leftOut) return leftOut;
        return [];
      } catch (error) {
        if (error instanceof Departure) {
          departed = true;
          world.note(`the sequence: ${String(commands)}; replay: checkout-conformance run --seed ${run.seed} --grep "a model of the whole service"`);
          return error.problems;
        }
        throw error;
      }
    },
    { runs, timeLimitMs: runs * sequenceBudgetMs + shrinkBudgetMs },
  );
}

test.describe('a model of the whole service', () => {
  test(
    'random sequences of every operation, judged step by step against the model',
    { tag: tags('TOK-1', 'TOK-2', 'TOK-3', 'TOK-4', 'TOK-6', 'REF-6', 'REF-7', 'REF-8', 'EVT-1', 'EVT-2', 'EVT-4', 'CHK-7') },
    async ({ run, api, receiver, interbank, property }) => {
      void interbank;
      test.setTimeout((run.modelRuns ?? defaultModelRuns) * sequenceBudgetMs + shrinkBudgetMs + 60_000);
      await runModel(run, api, receiver, property, true);
    },
  );

  test('without test helpers: random sequences of the four operations', { tag: tags('CHK-7', 'REF-8') }, async ({ run, api, receiver, property, observe }) => {
    test.skip(helpersUsable(run), 'the target has test helpers: the whole model runs instead');
    requires(run, 'stateful');
    await observe.record(`commands left out (target has no test helpers): ${helperCommands.join(', ')}`, helperCommands);
    test.setTimeout((run.modelRuns ?? defaultModelRuns) * sequenceBudgetMs + shrinkBudgetMs + 60_000);
    await runModel(run, api, receiver, property, false);
  });
});
