/**
 * Fuzz, embedded mode: generated raw-socket cases (fuzz-cases.ts) against the `npm start` bundle
 * in its own process. After every case the process answers /v2/hash correctly and holds no
 * uploaded bytes; after the run it is still running (`kill -0`).
 */
import { describeFuzz } from './fuzz-run.js';
import { spawnEmbedded } from './services.js';

describeFuzz('embedded mode', spawnEmbedded, 1200);
