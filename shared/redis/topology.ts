/**
 * Which Redis the process talks to, read once from the settings (shared/config.ts) and handed to
 * every connection it opens (shared/queue/redis-connection.ts): one node (REDIS_URL), a primary
 * found through Sentinel (REDIS_SENTINELS + REDIS_SENTINEL_NAME), or a Redis Cluster
 * (REDIS_CLUSTER_NODES). docs/operating.md "Redis topologies".
 */

export interface RedisNodeAddress {
  host: string;
  port: number;
}

export type RedisTopology =
  | { kind: 'single'; url: string }
  | {
      kind: 'sentinel';
      sentinels: RedisNodeAddress[];
      /** The monitored primary's name (`sentinel monitor <name> …`). */
      name: string;
      /** AUTH of the data nodes (primary and replicas). */
      password: string | undefined;
      /** AUTH of the sentinels themselves, when they have `requirepass`. */
      sentinelPassword: string | undefined;
    }
  | { kind: 'cluster'; nodes: RedisNodeAddress[]; password: string | undefined };

/** What a connection is opened from: a topology, or (tests, tools) a single redis:// URL. */
export type RedisTarget = RedisTopology | string;

/** The settings the topology is read from (a subset of the environment). */
export interface RedisSettings {
  REDIS_URL?: string | undefined;
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
  REDIS_PASSWORD?: string | undefined;
  REDIS_CLUSTER_NODES?: string | undefined;
}

/** The queue prefix a cluster gets when QUEUE_PREFIX is unset: a hash tag, so every key of the service sits in one slot. */
export const CLUSTER_DEFAULT_PREFIX = '{sha224d}';

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$/;

/** `host:port,host:port` → addresses; throws naming `setting` on the first bad entry. */
export function parseNodeList(setting: string, value: string): RedisNodeAddress[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error(`${setting} must list at least one host:port`);
  return entries.map((entry) => {
    const match = HOST_PORT.exec(entry);
    const port = Number(match?.[2]);
    if (match === null || port < 1 || port > 65535) throw new Error(`${setting}: "${entry}" is not host:port (port 1-65535)`);
    const host = match[1]!;
    return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
  });
}

/**
 * The topology the settings name, or undefined (embedded mode). Refuses, with a message naming
 * the setting, any combination that could mean two things: more than one topology, a sentinel
 * list without the primary's name (or the reverse), a password for a topology that has no use for
 * it (a redis:// URL carries its own).
 */
export function parseRedisTopology(settings: RedisSettings): RedisTopology | undefined {
  const set = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());
  const url = set(settings.REDIS_URL);
  const sentinels = set(settings.REDIS_SENTINELS);
  const name = set(settings.REDIS_SENTINEL_NAME);
  const sentinelPassword = set(settings.REDIS_SENTINEL_PASSWORD);
  const password = set(settings.REDIS_PASSWORD);
  const cluster = set(settings.REDIS_CLUSTER_NODES);
  const chosen = [url && 'REDIS_URL', sentinels && 'REDIS_SENTINELS', cluster && 'REDIS_CLUSTER_NODES'].filter(Boolean);
  if (chosen.length > 1) throw new Error(`${chosen.join(' and ')} are set: choose one Redis topology`);
  if (name !== undefined && sentinels === undefined) throw new Error('REDIS_SENTINEL_NAME is set without REDIS_SENTINELS');
  if (sentinelPassword !== undefined && sentinels === undefined) throw new Error('REDIS_SENTINEL_PASSWORD is set without REDIS_SENTINELS');
  if (url !== undefined) {
    if (!/^rediss?:\/\//.test(url) || !URL.canParse(url)) throw new Error('REDIS_URL must be a redis:// or rediss:// URL');
    if (password !== undefined)
      throw new Error('REDIS_PASSWORD is for REDIS_SENTINELS or REDIS_CLUSTER_NODES; put the password in REDIS_URL');
    return { kind: 'single', url };
  }
  if (sentinels !== undefined) {
    if (name === undefined) throw new Error('REDIS_SENTINELS needs REDIS_SENTINEL_NAME (the name in `sentinel monitor <name> …`)');
    return { kind: 'sentinel', sentinels: parseNodeList('REDIS_SENTINELS', sentinels), name, password, sentinelPassword };
  }
  if (cluster !== undefined) return { kind: 'cluster', nodes: parseNodeList('REDIS_CLUSTER_NODES', cluster), password };
  if (password !== undefined) throw new Error('REDIS_PASSWORD is set without REDIS_SENTINELS or REDIS_CLUSTER_NODES');
  return undefined;
}

/** A single URL as a topology. */
export function topologyOf(target: RedisTarget): RedisTopology {
  return typeof target === 'string' ? { kind: 'single', url: target } : target;
}

/** True if the key (or prefix) carries a non-empty hash tag: `{…}` decides its cluster slot. */
export function hasHashTag(key: string): boolean {
  return /\{[^{}]+\}/.test(key);
}

/**
 * The QUEUE_PREFIX a topology runs with: the setting, else `{sha224d}` on a cluster (every key in
 * one slot) and none elsewhere (BullMQ's `bull` and unprefixed keys, as deployments have them).
 * A cluster prefix without a hash tag would split a job's keys over slots: refused.
 */
export function effectiveQueuePrefix(topology: RedisTopology | undefined, prefix: string | undefined): string | undefined {
  if (topology?.kind !== 'cluster') return prefix;
  if (prefix === undefined) return CLUSTER_DEFAULT_PREFIX;
  if (!hasHashTag(prefix))
    throw new Error(`QUEUE_PREFIX must contain a hash tag such as {${prefix}} on a Redis Cluster (REDIS_CLUSTER_NODES)`);
  return prefix;
}

/** Where the topology points, for logs and the admin CLI; never a password. */
export function describeTopology(topology: RedisTopology): string {
  const list = (nodes: RedisNodeAddress[]): string => nodes.map((n) => `${n.host}:${n.port}`).join(',');
  switch (topology.kind) {
    case 'single': {
      if (!URL.canParse(topology.url)) return '(unparsable REDIS_URL)';
      const url = new URL(topology.url);
      return `${url.host}${url.pathname.length > 1 ? url.pathname : ''}`;
    }
    case 'sentinel':
      return `sentinel ${topology.name} via ${list(topology.sentinels)}`;
    case 'cluster':
      return `cluster ${list(topology.nodes)}`;
  }
}

/**
 * QUEUE_PREFIX: 1-64 characters of [A-Za-z0-9_.-], with at most one hash tag `{…}` (a Redis
 * Cluster needs one, so a job's keys share a slot).
 */
export const QUEUE_PREFIX_PATTERN = /^(?=.{1,64}$)[A-Za-z0-9_.-]*(\{[A-Za-z0-9_.-]+\})?[A-Za-z0-9_.-]*$/;
