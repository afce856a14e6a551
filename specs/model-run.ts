/**
 * Running the model of the whole service (src/model) for its specs (model.spec.ts through the test
 * helpers, model-pages.spec.ts on the hosted pages too): the world its commands act through, and the
 * property that runs its sequences.
 */
import fc from 'fast-check';
import { card, wallet } from '../generators/index.ts';
import { Departure, finish, startModel, modelCommands, RemoveWebhook, SetWebhook, type Command, type World } from '../src/model/index.ts';
import type { PaidWith } from '../src/checks/index.ts';
import type { RunConfig } from '../src/core/run-config.ts';
import { helperClient, leftOut, type Api, type BrowserPages, type Property, type Receiver } from './fixtures.ts';
import { payOnNewPage } from './hosted-page.ts';
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
/** A model test's time-out: its sequences, a shrink, and a minute for the rest. */
export const modelTimeoutMs = (runs: number) => runs * sequenceBudgetMs + shrinkBudgetMs + 60_000;

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
function meansOf(run: RunConfig, share: MeansShare): World['payWith'] {
  const payable = fc.oneof(
    card().map((paid): PaidWith => ({ method: 'CC', card: paid })),
    wallet().map((paid): PaidWith => ({ method: 'MW', wallet: paid })),
  );
  const last3 = (paid: PaidWith) => (paid.method === 'CC' ? paid.card.number : paid.wallet.number).slice(-3);
  const [from, to] = meansShares[share];
  const pool = sample(
    run,
    fc.uniqueArray(
      payable.filter((paid) => last3(paid) !== '002'),
      { minLength: meansPerRun, maxLength: meansPerRun, selector: last3 },
    ),
  ).slice(from, to);
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
/** Unique last digits for every payment of both model tests of a run (the helper model's: more than 30 sequences make). */
const meansPerRun = 600;
/**
 * Each model test's part of the means: the two run side by side, and a target that leaks one
 * customer's methods into another's list must show them as another payment's, not as one of the
 * test's own with the same last digits.
 */
const meansShares = { helpers: [0, 480], pages: [480, meansPerRun] } as const;
type MeansShare = keyof typeof meansShares;

/** Where the model's customers pay on the hosted page: in a page of their own, as tokenization.spec.ts pays. */
const pagesOf = (run: RunConfig, browserPages: BrowserPages): NonNullable<World['pages']> => ({
  pay: (url, paid, storeConsent) => payOnNewPage(run, browserPages, url, paid, { storeConsent, whereOffered: true }),
});

interface ModelOptions {
  helpers: boolean;
  /** The run's pages where customers pay on the hosted page too. */
  browserPages?: BrowserPages;
  runs: number;
  /** Sequences run first, on every run (the classes it must not leave to chance), before the random ones. */
  directed?: Command[][];
}

function worldOf(run: RunConfig, api: Api, receiver: Receiver, options: ModelOptions): World {
  return {
    send: (request) => api.send(request),
    helpers: options.helpers ? helperClient(api) : null,
    pages: options.browserPages ? pagesOf(run, options.browserPages) : null,
    receiver,
    eventMs: run.profile.timeouts.eventMs,
    payWith: meansOf(run, options.browserPages ? 'pages' : 'helpers'),
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
export async function runModel(run: RunConfig, api: Api, receiver: Receiver, property: Property, options: ModelOptions) {
  const { helpers, runs } = options;
  const world = worldOf(run, api, receiver, options);
  const deadline = Date.now() + sequencesBudgetMs(run);
  let departed = false;
  let started = 0;
  await property(
    modelCommands({ helpers, pages: world.pages !== null, maxCommands }),
    async (commands) => {
      const model = await startModel(world);
      try {
        const sequence = async (): Promise<typeof leftOut | void> => {
          // Past the budget (the sequences run side by side, and those that move the webhook take turns), the random ones left are left out; a shrink runs them all.
          if (Date.now() > deadline && started >= minimumModelRuns && !departed && !options.directed?.includes(commands as Command[])) return leftOut;
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
    { runs, timeLimitMs: (runs + (options.directed?.length ?? 0)) * sequenceBudgetMs + shrinkBudgetMs, examples: options.directed },
  );
}
