/**
 * Tags of the tests that last about one eventMs window: those that wait it out for something that
 * must not happen (a notification, a post), and those that explore for as long (the model of the
 * whole service: src/harness/model-run.ts) or take turns with it at the webhook. Where eventMs is long, the
 * run gives these tests workers of their own, started first (playwright.config.ts), so that their
 * windows overlap each other and the rest of the run instead of adding up. Their own module, so that
 * the config need not load the fixtures.
 */
export const waitsOutEventMs = '@waits-out-eventMs';
export const lastsEventMs = '@lasts-eventMs';

/**
 * Tag of the tests that pay on the hosted page, in Chromium: a pool of workers of their own (its CPU
 * is Chromium's). A test of a browser spec that needs no page (the pay helper's) goes with the API tests.
 */
export const paysInBrowser = '@browser';

/**
 * The project of the final audit (specs/whole-run/audit.spec.ts) where it is a teardown that runs once
 * every other test ended: in a part of a sharded run, and in the mutant catalogue.
 */
export const auditProject = 'audit';
/** Its file, compiled or not: an installed package runs dist/specs/whole-run/audit.spec.js. */
export const auditSpec = /\/audit\.spec\.[jt]s$/;
