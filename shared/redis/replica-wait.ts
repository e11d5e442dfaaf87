/**
 * WAIT after a job add on a replicated topology (Sentinel, Cluster): the add is acknowledged to
 * the client only once a replica holds it, so a primary killed right after the answer does not
 * take an accepted job with it (Redis replication is asynchronous). Bounded: with every replica
 * down the add is still answered after `timeoutMs` (docs/decisions.md "Redis topologies").
 */
import { isCluster, type RedisClient } from './client-factory.js';

/**
 * A function that waits (up to `timeoutMs`) until one replica has every write so far of the
 * connection that serves `slotKey`; resolves with the number of replicas that acknowledged.
 */
export function replicaWaiter(client: RedisClient, slotKey: string, timeoutMs: number): () => Promise<number> {
  if (!isCluster(client)) return () => client.wait(1, timeoutMs);
  let slot: Promise<number> | undefined;
  return async () => {
    if (slot === undefined) {
      slot = client.cluster('KEYSLOT', slotKey);
      slot.catch(() => (slot = undefined));
    }
    const nodeKey = client.slots[await slot]?.[0];
    // The master's connection is the one the add went through: WAIT counts that connection's writes.
    const master = client.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === nodeKey);
    return master === undefined ? 0 : master.wait(1, timeoutMs);
  };
}
