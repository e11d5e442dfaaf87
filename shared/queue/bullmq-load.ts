/**
 * BullMQ, imported on first use. The package's index loads all of it (~180 modules: every Lua
 * script, its flow, scheduler, sandbox and PostgreSQL backends, cron-parser) and a distributed API
 * node needs none of it until it queues a job or is scraped: loading it at start cost ~10 MiB of
 * RSS and ~100 ms of CPU before the first request (docs/decisions.md "Speed").
 */
import type * as BullMqModule from 'bullmq';
import type { Queue, QueueOptions } from 'bullmq';

export type BullMq = typeof BullMqModule;

let loading: Promise<BullMq> | undefined;

/** The bullmq module, imported once. */
export function loadBullMq(): Promise<BullMq> {
  return (loading ??= import('bullmq'));
}

/** A BullMQ Queue built once the module is loaded. */
export async function newQueue<Data>(name: string, options: QueueOptions): Promise<Queue<Data, unknown, string>> {
  const { Queue } = await loadBullMq();
  return new Queue<Data, unknown, string>(name, options);
}
