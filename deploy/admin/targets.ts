/**
 * One stderr line naming what the admin CLI opened, so an operator sees at once whether it works
 * on the server's store: the SQLite file, or PostgreSQL's host and database; Redis's host (and
 * QUEUE_PREFIX) when Redis is configured (one node, Sentinel or Cluster). Never a password.
 */
import type { Config } from '../../shared/config.js';
import { databaseOptionsFromConfig, isPostgresUrl } from '../../shared/store/database.js';
import { describeTopology } from '../../shared/redis/topology.js';

export function describeStore(config: Config): string {
  const options = databaseOptionsFromConfig(config);
  if (!isPostgresUrl(options.databaseUrl)) return `SQLite ${options.sqlitePath}`;
  const url = new URL(options.databaseUrl);
  // A socket URL (postgres:///db?host=/run/postgresql) names its host in the query.
  const host = url.host || url.searchParams.get('host') || 'localhost';
  return `PostgreSQL ${host}/${decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres'}`;
}

export function describeRedis(config: Pick<Config, 'redis' | 'QUEUE_PREFIX'>): string | undefined {
  if (config.redis === undefined) return undefined;
  const where = describeTopology(config.redis);
  return `Redis ${where}${config.QUEUE_PREFIX === undefined ? '' : ` (prefix ${config.QUEUE_PREFIX})`}`;
}

/** "store: SQLite /srv/data/sha224d.sqlite; queue: Redis 10.0.0.5:6379 (prefix prod)". */
export function describeTargets(config: Config): string {
  const redis = describeRedis(config);
  return `store: ${describeStore(config)}${redis === undefined ? '' : `; queue: ${redis}`}`;
}
