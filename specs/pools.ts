/**
 * The tag of a test that waits out the profile's eventMs for something that must not happen (a
 * notification, a post): the run gives these tests workers of their own (playwright.config.ts), so
 * that their waits overlap each other and the rest of the run instead of adding up. Its own module,
 * so that the config need not load the fixtures.
 */
export const waitsOutEventMs = '@waits-out-eventMs';
