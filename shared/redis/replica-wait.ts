/**
 * WAIT after a job add on a replicated topology (Sentinel, Cluster): the add is acknowledged to
 * the client only once a replica holds it, so a primary killed right after the answer does not
 * take an accepted job with it (Redis replication is asynchronous). Bounded: with every replica
 * down the add is still answered after `timeoutMs` (docs/decisions.md "Redis topologies").
 *
 * WAIT blocks the connection it is sent on: Redis runs none of that connection's later commands
 * until it returns. The producer's one connection carries every add of the node, so after a
 * failover (the promoted replica has no replica of its own) each add's `WAIT 1 1000` held every
 * command behind it for a second, they queued one after another, and the node's adds overran
 * their 1.5 s budget (503) for as long as load lasted. Hence two rules per connection: one WAIT
 * in flight at a time (those who wrote meanwhile share the next one: a WAIT covers every earlier
 * write of its connection), and once a WAIT was acknowledged by no replica, adds are answered
 * without one, one probe WAIT every PROBE_INTERVAL_MS finding out whether a replica is back.
 */
import { isCluster, type RedisClient } from './client-factory.js';

/** While no replica acknowledges, how often one add still WAITs to find out whether one is back. */
export const PROBE_INTERVAL_MS = 5000;

/**
 * A function that waits (up to `timeoutMs`) until one replica has every write so far of the
 * connection that serves `slotKey`; resolves with the number of replicas that acknowledged
 * (0 at once while the connection's primary is known to have none).
 */
export function replicaWaiter(client: RedisClient, slotKey: string, timeoutMs: number): () => Promise<number> {
  if (!isCluster(client)) {
    const gate = waitGate(() => client.wait(1, timeoutMs));
    return () => gate();
  }
  let slot: Promise<number> | undefined;
  const gates = new Map<string, () => Promise<number>>();
  return async () => {
    if (slot === undefined) {
      slot = client.cluster('KEYSLOT', slotKey);
      slot.catch(() => (slot = undefined));
    }
    const nodeKey = client.slots[await slot]?.[0];
    // The master's connection is the one the add went through: WAIT counts that connection's writes.
    const master = client.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === nodeKey);
    if (master === undefined || nodeKey === undefined) return 0;
    let gate = gates.get(nodeKey);
    if (gate === undefined) {
      gate = waitGate(() => master.wait(1, timeoutMs));
      gates.set(nodeKey, gate);
    }
    return gate();
  };
}

/**
 * Serializes and, while no replica acknowledges, skips the WAITs `wait` sends on one connection
 * (see the file's comment). Exported for its unit test.
 */
export function waitGate(wait: () => Promise<number>, now: () => number = Date.now): () => Promise<number> {
  let inFlight: Promise<number> | undefined;
  let next: Promise<number> | undefined;
  /** When the last WAIT that no replica acknowledged was sent; undefined while replicas answer. */
  let unacknowledgedSince: number | undefined;
  const degraded = (): boolean => unacknowledgedSince !== undefined && now() - unacknowledgedSince < PROBE_INTERVAL_MS;
  const issue = (): Promise<number> => {
    const sentAt = now();
    const sent = wait().then((acknowledged) => {
      unacknowledgedSince = acknowledged > 0 ? undefined : sentAt;
      return acknowledged;
    });
    inFlight = sent;
    const clear = (): void => {
      if (inFlight === sent) inFlight = undefined;
    };
    sent.then(clear, clear);
    return sent;
  };
  return () => {
    if (degraded()) return Promise.resolve(0);
    if (inFlight === undefined) return issue();
    // Our write came after the WAIT in flight was sent: the next one covers it, shared by everyone
    // who wrote meanwhile.
    next ??= inFlight
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        if (degraded()) return 0;
        return inFlight ?? issue();
      });
    return next;
  };
}
