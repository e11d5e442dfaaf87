/**
 * The fixed-rate load generator (fixed-rate.ts) as a process of its own, for benches that must not
 * count the generator's own waits for a CPU as the service's: bench:bulk's target 3 raises its
 * priority (generator.ts), standing in for clients on other machines. Forked by generator.ts; each
 * message from the parent is one window's options, answered with its result.
 */
import { fixedRateLoad, type FixedRateOptions } from './fixed-rate.js';

process.on('message', (options: FixedRateOptions) => {
  fixedRateLoad(options).then(
    (result) => process.send?.({ result }),
    (err: unknown) => process.send?.({ error: err instanceof Error ? err.message : String(err) }),
  );
});
process.send?.({ ready: true });
