import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
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
 * Files that need a process of their own, with a module graph and V8 state no other file has
 * touched (docs/decisions.md "Tests and CI"); every other file shares its fork's modules with the
 * files run before it (`isolate: false`).
 */
const NEEDS_OWN_PROCESS = [
  // Counts the first import of BullMQ, socket.io's Redis adapter and hash-wasm through vi.mock:
  // another file has already imported them in a shared fork.
  'test/deploy/first-use-imports.test.ts',
  // Lists a fresh vm realm's globals; once the upload path has set V8's --expose-gc in the process
  // (api/uploads/received-chunks.ts), every new realm also has `gc`.
  'test/clients/browser/build.test.ts',
  // Failed after other files in a shared fork; run apart until the shared state is found.
  'test/metrics/metrics.test.ts',
  'test/net/redirects.test.ts',
];

const isolated = (f: TestSpecification): boolean => f.project.config.isolate !== false;

/**
 * Vitest's order (failed, then slowest, else largest files first) with the long-running files
 * moved to the front in the order above: on a clean clone vitest has no timings and falls back to
 * file size, so a short file that runs for minutes would start last and add its whole length.
 * The files that need their own process come last: a fork sharing its modules is kept for the
 * next file only while that file shares modules too, so one in between would end a warm fork.
 */
class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => LONG_RUNNING.findIndex((name) => f.moduleId.endsWith(name));
    const long = sorted.filter((f) => rank(f) >= 0).sort((a, b) => rank(a) - rank(b));
    const rest = sorted.filter((f) => rank(f) < 0);
    return [...long, ...rest.filter((f) => !isolated(f)), ...rest.filter(isolated)];
  }
}

/** What both projects run with; not `extends: true`, which would run the global setup once more per project. */
const common = {
  // Integration suites spawn servers and share the machine's Redis/PostgreSQL; two cores → two forks.
  pool: 'forks',
  testTimeout: 60_000,
  hookTimeout: 60_000,
} satisfies TestProjectInlineConfiguration['test'];

// The soak (test/soak/*.soak.ts) is a command of its own, `npm run soak`, which sets SOAK_SECONDS.
const include = ['test/**/*.test.ts', ...(process.env.SOAK_SECONDS === undefined ? [] : ['test/**/*.soak.ts'])];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: 2,
    sequence: { sequencer: LongRunningFirst },
    projects: [
      // Importing the service's modules again for every file was 237 s of a run; shared, 37 s.
      { test: { ...common, name: 'shared', include, exclude: [...configDefaults.exclude, ...NEEDS_OWN_PROCESS], isolate: false } },
      { test: { ...common, name: 'own-process', include: NEEDS_OWN_PROCESS, isolate: true } },
    ],
  },
});
