/**
 * Concurrent realtime connections per account (docs/api.md "v2 limits by plan": WebSocket connections). /v2/ws
 * and socket.io connections count together.
 *
 * Embedded mode counts in memory. Distributed mode keeps one sorted set per account in Redis:
 * member = connection id, score = Redis server time of its last heartbeat. Every node refreshes its
 * own connections every `heartbeatMs`; an acquire first drops members older than `staleMs`, so
 * the connections of a node that crashed stop counting after `staleMs` instead of forever. Redis's
 * own clock scores every member, so clock skew between API nodes does not matter. That registry
 * lives in redis-connection-registry.ts, loaded only when REDIS_URL is set (engines.ts).
 */
export interface ConnectionLease {
  /** Stop counting this connection. Idempotent; never throws. */
  release(): Promise<void>;
}

export interface ConnectionRegistry {
  /** A lease if the account has fewer than `limit` open connections (null: no limit), else undefined. */
  acquire(accountId: string, limit: number | null): Promise<ConnectionLease | undefined>;
  /** Release every lease still held by this node. Idempotent. */
  close(): Promise<void>;
}

/** The lease of a connection no limit counts: nothing to release. */
export const UNLIMITED: ConnectionLease = { release: () => Promise.resolve() };

export class MemoryConnectionRegistry implements ConnectionRegistry {
  private readonly open = new Map<string, number>();

  acquire(accountId: string, limit: number | null): Promise<ConnectionLease | undefined> {
    if (limit === null) return Promise.resolve(UNLIMITED);
    const count = this.open.get(accountId) ?? 0;
    if (count >= limit) return Promise.resolve(undefined);
    this.open.set(accountId, count + 1);
    let released = false;
    return Promise.resolve({
      release: () => {
        if (!released) {
          released = true;
          const left = (this.open.get(accountId) ?? 1) - 1;
          if (left <= 0) this.open.delete(accountId);
          else this.open.set(accountId, left);
        }
        return Promise.resolve();
      },
    });
  }

  close(): Promise<void> {
    this.open.clear();
    return Promise.resolve();
  }
}
