/** The service on a primary, a replica and 3 sentinels (scenario.ts), the primary killed under load. */
import { startRedisSentinel } from '../helpers/redis-topology.js';
import { describeFailover } from './scenario.js';

describeFailover('Redis Sentinel', startRedisSentinel);
