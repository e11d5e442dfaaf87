/**
 * Pub/sub that works on every topology: on a Redis Cluster sharded pub/sub (SSUBSCRIBE and
 * SPUBLISH, to the master of the channel's slot; the subscriber Cluster has `shardedSubscribers`),
 * elsewhere plain SUBSCRIBE and PUBLISH. A channel list given to one subscribe must share a slot
 * on a cluster: the service's channels all carry QUEUE_PREFIX's hash tag (shared/naming.ts).
 */
import { isCluster, type RedisClient } from './client-factory.js';

/** Subscribes `client` to `channels`; `onMessage` hears each message. Resolves once subscribed. */
export function subscribeChannels(
  client: RedisClient,
  channels: string[],
  onMessage: (channel: string, message: string) => void,
): Promise<unknown> {
  if (isCluster(client)) {
    client.on('smessage', onMessage);
    return client.ssubscribe(...channels);
  }
  client.on('message', onMessage);
  return client.subscribe(...channels);
}

/** Publishes `message` on `channel` (SPUBLISH on a cluster). */
export function publishMessage(client: RedisClient, channel: string, message: string): Promise<unknown> {
  return isCluster(client) ? client.spublish(channel, message) : client.publish(channel, message);
}
