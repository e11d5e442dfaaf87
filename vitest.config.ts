import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that run for a minute or more on their own, longest first (measured on two cores: the
 * README's examples ~2-3 min, the typed client ~1 min, the fuzz suites and the drain ~1 min each,
 * the Redis Cluster and Sentinel failovers ~45 s each): started first, so the other fork runs the
 * short files beside them.
 */
const LONG_RUNNING = [
  'test/docs/doc-commands.test.ts',
  'test/openapi/typed-client.test.ts',
  'test/robustness/fuzz-embedded.test.ts',
  'test/robustness/fuzz-distributed.test.ts',
  'test/e2e/drain.test.ts',
  'test/redis-topologies/cluster.test.ts',
  'test/redis-topologies/sentinel.test.ts',
];

/**
 * Vitest's order (failed, then slowest, else largest files first) with the long-running files
 * moved to the front in the order above: on a clean clone vitest has no timings and falls back to
 * file size, so a short file that runs for minutes would start last and add its whole length.
 */
class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => LONG_RUNNING.findIndex((name) => f.moduleId.endsWith(name));
    const long = sorted.filter((f) => rank(f) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...long, ...sorted.filter((f) => rank(f) < 0)];
  }
}

export default defineConfig({
  test: {
    // The soak (test/soak/*.soak.ts) is a command of its own, `npm run soak`, which sets SOAK_SECONDS.
    include: ['test/**/*.test.ts', ...(process.env.SOAK_SECONDS === undefined ? [] : ['test/**/*.soak.ts'])],
    globalSetup: ['test/global-setup.ts'],
    // Integration suites spawn servers and share the machine's Redis/PostgreSQL; two cores → two forks.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: LongRunningFirst },
  },
});
