/** fast-check arbitraries of the reference's requests, and the pure helpers behind them. */
export * from './values.ts';
export * from './checkouts.ts';
export * from './references.ts';
export * from './broken.ts';
export * from './payment-means.ts';
export * from './classes.ts';
export * from './input-class.ts';
export * from './framings.ts';
export * from './corners.ts';
export * from './covering.ts';
export * from './merchant-pages.ts';
