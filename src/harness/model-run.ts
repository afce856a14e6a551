/**
 * Running the model of the whole service (src/model) for its specs (model.spec.ts through the test
 * helpers, model-pages.spec.ts on the hosted pages too): the world its commands act through, and the
 * property that runs its sequences.
 */
import fc from 'fast-check';
import { card, wallet } from '../generators/index.ts';
import {
  awaitOwedNotifications,
  Departure,
  finish,
  finishNeedsWebhook,
  modelCommands,
  RemoveWebhook,
  SetWebhook,
  startModel,
  webhookPathPrefix,
  type Command,
  type Model,
  type Webhook,
  type World,
} from '../model/index.ts';
import type { PaidWith, Problem } from '../checks/index.ts';
import type { RunConfig } from '../core/run-config.ts';
import { helperClient, leftOut, type Api, type BrowserPages, type Observer, type Property, type Receiver } from './fixtures.ts';
import { replayPathParts } from './property.ts';
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

/** How many histories of operations at once the run checked, and the most operations one had. */
interface ConcurrentHistories {
  checked: number;
  longest: number;
}

/** What the sequences of a run share: each acts through its own (sequenceWorld). */
type RunWorld = Omit<World, 'lendWebhook' | 'handOverWebhook'>;

function worldOf(run: RunConfig, api: Api, receiver: Receiver, options: ModelOptions, histories: ConcurrentHistories): RunWorld {
  return {
    call: (name, ...options) => api.call(name, ...options),
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
    histories: {
      checked(operations) {
        histories.checked++;
        histories.longest = Math.max(histories.longest, operations);
      },
    },
  };
}

/** A command of a sequence, as the model defines it (fast-check wraps each). */
const unwrapped = (command: unknown) => (command as { cmd?: unknown }).cmd ?? command;

const movesWebhook = (command: unknown) => unwrapped(command) instanceof SetWebhook || unwrapped(command) instanceof RemoveWebhook;

/** The run's webhook lock (webhook-lock.ts), taken: the function gives it back. */
const webhookLockTaken = (run: RunConfig) =>
  new Promise<() => void>((taken, failed) => {
    holdingWebhook(run, () => new Promise<void>((giveBack) => taken(giveBack))).catch(failed);
  });

/**
 * The webhook is one setting of the whole target: the model's sequences that move it take turns
 * with it, each turn holding the run's webhook lock against the webhook specs of other workers.
 * Queued here, so that a turn starts as the one before it ends, not at the lock's next poll.
 */
class WebhookTurns {
  private taken = false;
  private readonly waiting: (() => void)[] = [];
  /** Every path a sequence of this model set the webhook to, and when. */
  private readonly set: { path: string; at: number }[] = [];

  constructor(private readonly run: RunConfig) {}

  /** Waits for a turn, at the front of the queue where a sequence resumes after lending it: the function ends it. */
  async take(resuming = false): Promise<() => void> {
    if (this.taken) await new Promise<void>((next) => (resuming ? this.waiting.unshift(next) : this.waiting.push(next)));
    this.taken = true;
    const giveBack = await webhookLockTaken(this.run).catch((error: unknown) => {
      this.passOn();
      throw error;
    });
    return () => {
      giveBack();
      this.passOn();
    };
  }

  private passOn(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.taken = false;
  }

  get contended(): boolean {
    return this.waiting.length > 0;
  }

  webhookSet(path: string): void {
    this.set.push({ path, at: Date.now() });
  }

  pathsSetSince(at: number): string[] {
    return this.set.filter((set) => set.at >= at).map(({ path }) => path);
  }
}

/**
 * The world of one sequence. One that moves the webhook runs in its turn (`turn.end` ends it), and
 * while it sleeps with nothing on its way to the webhook, lets a sequence waiting for the webhook
 * have it, then takes a turn again and sets its own webhook back; at its end, lets it have it for good.
 */
function sequenceWorld(world: RunWorld, turns: WebhookTurns, turn: Turn): World {
  return {
    ...world,
    receiver: {
      ...world.receiver,
      newPath: (prefix) => {
        const path = world.receiver.newPath(prefix);
        if (prefix === webhookPathPrefix) turns.webhookSet(path);
        return path;
      },
    },
    async lendWebhook(ms, own) {
      const lentAt = Date.now();
      if (!(await handedOver(own))) {
        await world.sleep(ms);
        return [];
      }
      await world.sleep(ms);
      turn.end = await turns.take(true);
      if (own) {
        turns.webhookSet(own.path);
        await world.helpers!.setWebhook(own.url);
      }
      return turns.pathsSetSince(lentAt);
    },
    async handOverWebhook(ms, own) {
      const handedAt = Date.now();
      await handedOver(own);
      await world.sleep(ms);
      return turns.pathsSetSince(handedAt);
    },
  };

  /** Ends the sequence's turn, its own webhook removed first, where another sequence waits for one: whether it did. */
  async function handedOver(own: Webhook | null): Promise<boolean> {
    if (!turn.end || !turns.contended) return false;
    await endTurn(world, turn, own);
    return true;
  }
}

/** A sequence's turn with the webhook: `end` ends it, null where the sequence holds none. */
type Turn = { end: (() => void) | null };

/**
 * Ends the turn the sequence holds, if any, its own webhook removed first. Once ended it is held no
 * longer: what the sequence does after, out of its turn, must not hand on a turn it does not hold.
 */
async function endTurn(world: RunWorld, turn: Turn, own: Webhook | null): Promise<void> {
  if (!turn.end) return;
  if (own) await world.helpers!.removeWebhook();
  turn.end();
  turn.end = null;
}

/**
 * A sequence on a fresh model, its notifications judged at its end; false where `runs` says, at its
 * start, to leave it out. One that moves the webhook runs in its turn, and removes the webhook it
 * set before the turn ends; its end (finish) stays in the turn only where it watches the webhook.
 */
async function play(model: Model, commands: Iterable<Command>, world: RunWorld, turns: WebhookTurns, runs: () => boolean): Promise<boolean> {
  const turn: Turn = { end: [...commands].some(movesWebhook) ? await turns.take() : null };
  const inSequence = sequenceWorld(world, turns, turn);
  let finished = false;
  try {
    if (!runs()) return false;
    await fc.asyncModelRun(() => ({ model, real: inSequence }), commands);
    await awaitOwedNotifications(model, inSequence);
    if (finishNeedsWebhook(model)) {
      await finish(model, inSequence);
      finished = true;
    }
  } finally {
    await endTurn(world, turn, model.webhook);
  }
  if (!finished) await finish(model, inSequence);
  return true;
}

type Verdict = Problem[] | typeof leftOut;
type Outcome = { verdict: Verdict } | { error: unknown };

/**
 * The property runner tries as many cases at once as the target takes requests (two against the
 * embedded sandbox), but a sequence mostly waits: the cases of its first pass (the same, from the
 * same seed) start here all at once, and it reads their verdicts. A case asked for again (fc.check
 * shrinking a failure, one case at a time) runs anew. A failing verdict is handed over only once
 * every sequence started here has ended, so that none runs beside the shrinking.
 */
function judgedAhead<T>(cases: T[], judge: (value: T, ahead: boolean) => Promise<Verdict>): (value: T) => Promise<Verdict> {
  const keyOf = (value: T) =>
    JSON.stringify([...(value as Iterable<unknown>)].map(unwrapped).map((command) => [(command as object).constructor.name, command]));
  const ahead = new Map<string, Promise<Outcome>[]>();
  const all = cases.map((value) => {
    const outcome = judge(value, true).then(
      (verdict): Outcome => ({ verdict }),
      (error: unknown): Outcome => ({ error }),
    );
    const key = keyOf(value);
    ahead.set(key, [...(ahead.get(key) ?? []), outcome]);
    return outcome;
  });
  return async (value) => {
    const outcome = ahead.get(keyOf(value))?.shift();
    if (!outcome) return judge(value, false);
    const settled = await outcome;
    if ('error' in settled || (settled.verdict !== leftOut && settled.verdict.length > 0)) await Promise.all(all);
    if ('error' in settled) throw settled.error;
    return settled.verdict;
  };
}

/** Runs the property (runSequences), and records how many histories of operations at once it checked, whether it held or not. */
export async function runModel(run: RunConfig, api: Api, receiver: Receiver, property: Property, observe: Pick<Observer, 'record'>, options: ModelOptions) {
  const histories = { checked: 0, longest: 0 };
  try {
    await runSequences(run, api, receiver, property, options, histories);
  } finally {
    await observe.record(
      `operations at once: ${histories.checked} histories checked for linearizability, the longest of ${histories.longest} operations`,
      histories,
    );
  }
}

/** Runs the property: every sequence of its first pass at once, those that move the webhook in turns (WebhookTurns). */
async function runSequences(run: RunConfig, api: Api, receiver: Receiver, property: Property, options: ModelOptions, histories: ConcurrentHistories) {
  const { helpers, runs } = options;
  const world = worldOf(run, api, receiver, options, histories);
  const deadline = Date.now() + sequencesBudgetMs(run);
  const turns = new WebhookTurns(run);
  const directed = options.directed ?? [];
  let departed = false;
  let failedAhead = false;
  let started = 0;
  const judge = async (commands: Iterable<Command>, ahead: boolean): Promise<Verdict> => {
    const model = await startModel(world);
    // Past the budget, the random ones left are left out, as is the rest of a first pass that failed; a shrink runs them all.
    const runs = () => {
      const pastBudget = Date.now() > deadline && started >= minimumModelRuns && !departed && !directed.includes(commands as Command[]);
      if (pastBudget || (ahead && failedAhead)) return false;
      started++;
      return true;
    };
    try {
      return (await play(model, commands, world, turns, runs)) ? [] : leftOut;
    } catch (error) {
      if (ahead) failedAhead = true;
      if (error instanceof Departure) {
        departed = true;
        world.note(`the sequence: ${String(commands)}; replay: checkout-conformance run --seed ${run.seed} --grep "a model of the whole service"`);
        return error.problems;
      }
      throw error;
    }
  };
  const replayCommands = run.replayPath && replayPathParts(run.replayPath).commands;
  const arbitrary = modelCommands({ helpers, pages: world.pages !== null, maxCommands, ...(replayCommands && { replayPath: replayCommands }) });
  // A replay runs its one case: none of the first pass starts ahead.
  const firstPass = run.replayPath ? [] : [...directed, ...fc.sample(arbitrary, { seed: run.seed, numRuns: runs })];
  await property(arbitrary, judgedAhead(firstPass, judge), {
    runs,
    timeLimitMs: (runs + directed.length) * sequenceBudgetMs + shrinkBudgetMs,
    examples: directed,
  });
}
