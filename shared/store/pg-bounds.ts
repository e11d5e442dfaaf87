/** How long PostgreSQL may take, per step and per request (applied in pg-pool.ts; settings PG_* in shared/config.ts). */
export interface PgBounds {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** Client-side bound; above statementTimeoutMs so the server's own cancellation normally comes first. */
  queryTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /**
   * The most one HTTP request waits on PostgreSQL in all: getting connections and running
   * statements together. Each step is given what is left of it, capped by its own bound above.
   */
  requestTimeoutMs: number;
}

export const DEFAULT_PG_BOUNDS: PgBounds = {
  connectTimeoutMs: 3000,
  statementTimeoutMs: 5000,
  queryTimeoutMs: 6000,
  idleInTransactionTimeoutMs: 30_000,
  requestTimeoutMs: 5000,
};

export function validatePgBounds(bounds: PgBounds): void {
  for (const [name, value] of Object.entries(bounds)) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  }
  if (bounds.queryTimeoutMs < bounds.statementTimeoutMs) throw new RangeError('queryTimeoutMs must not be below statementTimeoutMs');
}
