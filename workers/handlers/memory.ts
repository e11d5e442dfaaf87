import { computeBatch, computeHash, computeHmac, computeVerify } from '../../shared/jobs/compute.js';
import type { JobHandler } from '../../shared/queue/types.js';

/** Jobs whose whole input is in the payload: the shared core, nothing else. */
export const hashHandler: JobHandler<'hash'> = (payload) => Promise.resolve(computeHash(payload));
export const hmacHandler: JobHandler<'hmac'> = (payload) => Promise.resolve(computeHmac(payload));
export const verifyHandler: JobHandler<'verify'> = (payload) => Promise.resolve(computeVerify(payload));
export const batchHandler: JobHandler<'batch'> = (payload) => Promise.resolve(computeBatch(payload));
