/**
 * The SDK against a distributed deployment: one API node and one worker as real processes on
 * Redis, PostgreSQL and S3 (s3rver); every input goes through the queue (INLINE_MAX_BYTES=0).
 */
import { afterAll, beforeAll } from 'vitest';
import { startCluster, type Cluster } from '../../helpers/cluster.js';
import { describeV1 } from './every-method-v1.js';
import { describeV2 } from './every-method-v2.js';
import type { Target } from './helpers.js';

let cluster: Cluster;
let target: Target;

beforeAll(async () => {
  cluster = await startCluster({ apiNodes: 1, workers: 1, env: { URL_FETCH_ALLOW_LOOPBACK: 'true', INLINE_MAX_BYTES: '0' } });
  target = { url: cluster.url(0), key: cluster.keys.production };
}, 120_000);
afterAll(() => cluster?.close(), 120_000);

describeV2('distributed', () => target);
describeV1('distributed', () => target);
