/**
 * Whether a concurrent history is linearizable: whether some serial order of its operations, which
 * keeps every operation that returned before another was called ahead of it, is one the sequential
 * model accepts answer by answer (Wing and Gong's search, with Porcupine's cache of the states met
 * after each set of operations, so that no set is searched twice from one state).
 */
import type { Problem } from '../checks/index.ts';

/** One operation of a history: what was asked and answered, and when it was called and returned (ms). */
export interface HistoryOperation<Input, Output> {
  input: Input;
  output: Output;
  call: number;
  return: number;
  /** How the timeline names it. */
  label: string;
}

/** The sequential model: the state after one operation answered so, or the problems that make that answer impossible there. */
export interface SequentialModel<State, Input, Output> {
  init: State;
  step(state: State, operation: HistoryOperation<Input, Output>): { state: State } | { problems: Problem[] };
  /** Equal keys for states that accept the same answers (the cache's). */
  key(state: State): string;
}

export type Linearization<State> =
  | { linearizable: true; order: number[]; state: State }
  /** The longest serial prefix found, and what the operation that could not follow it was told. */
  | { linearizable: false; longest: number[]; problems: Problem[] };

export function linearize<State, Input, Output>(
  history: readonly HistoryOperation<Input, Output>[],
  model: SequentialModel<State, Input, Output>,
): Linearization<State> {
  const seen = new Set<string>();
  let longest: number[] = [];
  let problems: Problem[] = [];
  const search = (done: readonly number[], state: State): { order: number[]; state: State } | null => {
    if (done.length === history.length) return { order: [...done], state };
    const cacheKey = `${[...done].sort((a, b) => a - b).join(',')}|${model.key(state)}`;
    if (seen.has(cacheKey)) return null;
    seen.add(cacheKey);
    const pending = history.map((_, index) => index).filter((index) => !done.includes(index));
    // Next may come only an operation called before every pending one returned.
    const firstReturn = Math.min(...pending.map((index) => history[index].return));
    for (const index of pending.filter((index) => history[index].call <= firstReturn)) {
      const stepped = model.step(state, history[index]);
      if ('problems' in stepped) {
        if (done.length >= longest.length) {
          longest = [...done];
          problems = stepped.problems;
        }
        continue;
      }
      const found = search([...done, index], stepped.state);
      if (found) return found;
    }
    return null;
  };
  const found = search([], model.init);
  return found ? { linearizable: true, ...found } : { linearizable: false, longest, problems };
}

/** The history as a timeline, one line per operation, its bar from call to return (ms from the first call). */
export function timeline(history: readonly HistoryOperation<unknown, unknown>[], width = 40): string {
  if (history.length === 0) return '';
  const from = Math.min(...history.map((operation) => operation.call));
  const to = Math.max(...history.map((operation) => operation.return));
  const scale = (at: number) => Math.round(((at - from) / Math.max(1, to - from)) * (width - 1));
  return history
    .map((operation) => {
      const start = scale(operation.call);
      const end = Math.max(start, scale(operation.return));
      const bar = ' '.repeat(start) + '|' + '-'.repeat(Math.max(0, end - start - 1)) + (end > start ? '|' : '') + ' '.repeat(width - end - 1);
      return `${bar}  ${operation.call - from}–${operation.return - from} ms  ${operation.label}`;
    })
    .join('\n');
}
