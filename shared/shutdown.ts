import type { Logger } from './log.js';

/**
 * Graceful shutdown on SIGTERM/SIGINT: run every cleanup in order even when one fails, then exit.
 * A second signal exits at once.
 */
export function onShutdown(logger: Logger, graceMs: number, cleanups: Array<() => Promise<void>>): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const hardStop = setTimeout(() => process.exit(1), graceMs + 5_000);
    hardStop.unref();
    void (async () => {
      for (const cleanup of cleanups) {
        try {
          await cleanup();
        } catch (err) {
          logger.error({ err }, 'cleanup failed during shutdown');
        }
      }
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
