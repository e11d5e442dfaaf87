/**
 * Largest body a plan may send per endpoint. Callers enforce it on the bytes as they
 * stream (shared/blob/byte-limit.ts), so 413 comes the moment the limit is crossed.
 */
import type { Plan } from '../store/types.js';
import type { PlanCatalog } from './plans.js';

/**
 * - `file`: multipart uploads (/v1/file/hash, /v1/hash/file, /v2/file).
 * - `stream`: /v2/stream raw bodies (the only way past /v2/file's cap).
 * - `url`: bodies fetched for /v1/hash/url and v2 URL hashing.
 */
export type FileEndpoint = 'file' | 'stream' | 'url';

/**
 * v1: the tier table's "Max file size" for every endpoint (Developer's 25 MB is the contract's
 * "25 MB for standard accounts" of /v1/file/hash). v2: the plan's size, except that /v2/file is
 * also capped at `v2FileEndpointMaxBytes` (docs/api.md "Other limits": larger files use /v2/stream).
 */
export function maxFileBytes(catalog: PlanCatalog, plan: Plan, generation: 'v1' | 'v2', endpoint: FileEndpoint = 'file'): number {
  const limits = catalog.plans[plan];
  if (generation === 'v1') return limits.v1MaxFileBytes;
  if (endpoint === 'file') return Math.min(limits.v2MaxFileBytes, catalog.v2FileEndpointMaxBytes);
  return limits.v2MaxFileBytes;
}
