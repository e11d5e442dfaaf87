import { createLogger } from '../../shared/log.js';
import { InProcessQueue } from '../../shared/queue/in-process.js';
import { describeJobQueueContract } from './contract.js';

const CONCURRENCY = 16;

describeJobQueueContract('InProcessQueue', ({ handlers, blobs, maxWaiting }) => {
  const queue = new InProcessQueue({
    handlers,
    blobs,
    logger: createLogger('silent'),
    concurrency: CONCURRENCY,
    retentionMs: 60_000,
    blobRetentionMs: 0,
    ...(maxWaiting === undefined ? {} : { maxWaiting }),
  });
  return Promise.resolve({ queue, capacity: CONCURRENCY, close: () => queue.close() });
});
