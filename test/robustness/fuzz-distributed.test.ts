/**
 * Fuzz, distributed mode: the generated raw-socket cases (fuzz-cases.ts) against an API node
 * process (`dist/api.js`) with a worker on Redis, PostgreSQL and s3rver. After every case the node
 * answers /v2/hash correctly and the object store holds no uploaded bytes; after the run every
 * process is still running (`kill -0`).
 */
import { describeFuzz } from './fuzz-run.js';
import { spawnDistributed } from './services.js';

describeFuzz('a distributed API node', spawnDistributed, 800);
