/** Tunables of the realtime interfaces, defaulted in one literal and validated before any I/O. */

export const MiB = 1024 * 1024;

export interface RealtimeOptions {
  /** Ping every this often; a peer that has not answered the previous ping is dropped. */
  pingIntervalMs: number;
  /** Largest message accepted; a larger one closes a /v2/ws connection with 1009. */
  maxMessageBytes: number;
  /** Messages being processed per connection; the excess is answered RATE_LIMIT_EXCEEDED at once. */
  maxInFlight: number;
  /** Bytes of messages being processed per connection (same answer as maxInFlight). */
  maxInFlightBytes: number;
  /** Unsent reply bytes above which a /v2/ws connection stops being read until they drain. */
  sendHighWaterBytes: number;
  /** Unsent socket.io packets above which the client is disconnected (socket.io cannot pause reads). */
  maxQueuedPackets: number;
  /** Distributed mode: how often each node refreshes its open connections in Redis. */
  connectionHeartbeatMs: number;
  /** Distributed mode: a connection not refreshed for this long is forgotten (its node died). */
  connectionStaleMs: number;
  /** socket.io: job subscriptions are re-checked this often, in case a finish event was lost. */
  jobPollMs: number;
  /** socket.io: pending job subscriptions per connection. */
  maxSubscriptions: number;
  /** On close: how long in-flight messages may take before connections are closed anyway. */
  closeGraceMs: number;
}

export const DEFAULT_REALTIME_OPTIONS: RealtimeOptions = {
  pingIntervalMs: 30_000,
  maxMessageBytes: 1 * MiB,
  maxInFlight: 256,
  maxInFlightBytes: 8 * MiB,
  sendHighWaterBytes: 1 * MiB,
  maxQueuedPackets: 4096,
  connectionHeartbeatMs: 10_000,
  connectionStaleMs: 30_000,
  jobPollMs: 5_000,
  maxSubscriptions: 1000,
  closeGraceMs: 5_000,
};

/** Merge over the defaults; throws RangeError naming the first bad option. */
export function resolveRealtimeOptions(overrides: Partial<RealtimeOptions> = {}): RealtimeOptions {
  const options: RealtimeOptions = { ...DEFAULT_REALTIME_OPTIONS };
  for (const [name, value] of Object.entries(overrides) as Array<[keyof RealtimeOptions, unknown]>) {
    if (!(name in DEFAULT_REALTIME_OPTIONS)) throw new RangeError(`unknown realtime option ${name}`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    options[name] = value;
  }
  if (options.connectionStaleMs <= options.connectionHeartbeatMs * 2) {
    throw new RangeError('connectionStaleMs must exceed twice connectionHeartbeatMs');
  }
  if (options.maxInFlightBytes < options.maxMessageBytes) throw new RangeError('maxInFlightBytes must be at least maxMessageBytes');
  return options;
}
