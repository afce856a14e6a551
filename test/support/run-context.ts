import type { RunContext } from '../../src/report/report.ts';

/** The context of a report built in a test: a partial run of seed 42 against an example URL. */
export function exampleContext(overrides: Partial<RunContext> = {}): RunContext {
  return {
    baseUrl: 'https://target.example/api',
    targetKind: 'url',
    profileName: 'example',
    profilePath: null,
    seed: 42,
    runs: 100,
    strict: false,
    allowPartial: true,
    findings: [],
    grep: null,
    shard: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: '2025-01-01T00:01:00.000Z',
    ...overrides,
  };
}
