export * from './problem.ts';
export * from './envelope.ts';
export * from './refusal.ts';
export * from './checkouts.ts';
export * from './payment-methods.ts';
export * from './references.ts';
export * from './notifications.ts';
export * from './pages.ts';
