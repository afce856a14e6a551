import type { Database } from './db.ts';

interface Queued {
  write: () => unknown;
  resolve: (value: any) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the writes asked for within one turn of the event loop run together in one
 * transaction, which costs one commit instead of one each. Every write runs in its own savepoint,
 * so one that fails undoes only itself, and every promise settles only once the transaction has
 * committed: an answer never acknowledges a write that a crash could still lose.
 */
export function createGroupCommit(db: Database) {
  let queue: Queued[] = [];
  const commitQueue = () => {
    const batch = queue;
    queue = [];
    const outcomes: ({ value: unknown } | { error: unknown })[] = [];
    try {
      db.transaction(() => {
        for (const { write } of batch) {
          try {
            outcomes.push({ value: db.transaction(write) });
          } catch (error) {
            outcomes.push({ error });
          }
        }
      });
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    batch.forEach(({ resolve, reject }, index) => {
      const outcome = outcomes[index];
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.value);
    });
  };
  return function commitSoon<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (queue.length === 0) setImmediate(commitQueue);
      queue.push({ write, resolve, reject });
    });
  };
}
