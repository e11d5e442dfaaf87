/** The service on a 3-master + 3-replica Redis Cluster (scenario.ts), its queue's master killed under load. */
import { startRedisCluster } from '../helpers/redis-topology.js';
import { describeFailover } from './scenario.js';

describeFailover('Redis Cluster', startRedisCluster);
