import { QUEUE_NAMES } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import { startBullMqWorkers } from '../../workers/bullmq/pool.js';
import { describeJobQueueContract } from './contract.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from './redis-helpers.js';

const CONCURRENCY = 32;

describeJobQueueContract('BullMQ (producer and workers in one process, real Redis)', async ({ handlers, blobs, maxWaiting }) => {
  const prefix = freshPrefix();
  const logger = createLogger('silent');
  const connection = SHARED_REDIS_URL;
  const queue = new BullMqJobQueue({
    connection,
    retentionMs: 60_000,
    logger,
    prefix,
    attempts: 3,
    backoffMs: 20,
    ...(maxWaiting === undefined ? {} : { maxWaiting }),
  });
  const workers = await startBullMqWorkers({
    connection,
    handlers,
    blobs,
    queues: QUEUE_NAMES,
    concurrency: CONCURRENCY,
    logger,
    blobRetentionMs: 0,
    prefix,
  });
  return {
    queue,
    capacity: CONCURRENCY,
    close: async () => {
      await workers.close();
      await queue.close();
      await dropPrefix(connection, prefix);
    },
  };
});
