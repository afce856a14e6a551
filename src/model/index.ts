/** A model of the whole service: its state, what each operation owes, and commands for fast-check's model-based testing. */
export * from './state.ts';
export * from './judge.ts';
export * from './commands.ts';
export * from './sequences.ts';
export * from './at-once.ts';
export * from './arbitraries.ts';
export * from './linearizability.ts';
export * from './combinations.ts';
