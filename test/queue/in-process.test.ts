import { createLogger } from '../../shared/log.js';
import { InProcessQueue } from '../../shared/queue/in-process.js';
import { describeJobQueueContract } from './contract.js';

describeJobQueueContract('InProcessQueue', ({ handlers, blobs }) => {
  const queue = new InProcessQueue({ handlers, blobs, logger: createLogger('silent'), concurrency: 16, retentionMs: 60_000, blobRetentionMs: 0 });
  return Promise.resolve({ queue, close: () => queue.close() });
});
