import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that run for minutes on their own (the soak): started first, so the other fork runs the rest beside them. */
const LONG_RUNNING = ['test/e2e/soak.test.ts'];

/**
 * Vitest's order (failed, then slowest, else largest files first) with the long-running files
 * moved to the front: started last, a 5-minute file would add its whole length to the run.
 */
class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLong = (f: TestSpecification): boolean => LONG_RUNNING.some((name) => f.moduleId.endsWith(name));
    return [...sorted.filter(isLong), ...sorted.filter((f) => !isLong(f))];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Integration suites spawn servers and share the machine's Redis/PostgreSQL; two cores → two forks.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: LongRunningFirst },
  },
});
