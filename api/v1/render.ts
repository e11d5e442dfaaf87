/**
 * v1 response bodies, one function per table of docs/api.md "Resources": Set A in
 * camelCase with `algorithm: 'sha224'`, Set B in snake_case. Timestamps have second precision.
 * Digests arrive from jobs as lowercase hex (shared/jobs/contracts.ts).
 */
import type { OutputFormat } from '../../shared/hashing/encoding.js';
import type { JobResults } from '../../shared/jobs/contracts.js';
import { NO_LIMIT, type UsageSnapshot } from '../../shared/limits/types.js';
import { isoSeconds } from '../../shared/time.js';
import { encoded } from '../http/digest-output.js';
import type { ServiceStatus } from '../operations/service-status.js';
import type { Body } from '../schemas/common.js';
import type * as v1 from '../schemas/v1.js';

const ALGORITHM = 'sha224' as const;
/** Set B status `version` (docs/api.md "Versioning": the status operation returns a version string). */
export const V1_VERSION = '1.0';

/** The contract types every usage figure as a number; "no limit" is -1, as in X-RateLimit-Limit. */
function figure(value: number | null): number {
  return value ?? NO_LIMIT;
}

function stamp(at: Date = new Date()): string {
  return isoSeconds(at);
}

// ---- Set A -----------------------------------------------------------------------------------

export function camelHashBody(result: JobResults['hash'], output: OutputFormat): Body<typeof v1.CamelHashResponse> {
  const { hash, encoding } = encoded(result.digest, output);
  return { success: true as const, hash, algorithm: ALGORITHM, encoding, timestamp: stamp() };
}

export function camelVerifyBody(result: JobResults['verify']): Body<typeof v1.CamelVerifyResponse> {
  return { success: true as const, verified: result.valid, algorithm: ALGORITHM, timestamp: stamp() };
}

export function camelFileHashBody(
  result: JobResults['file'],
  filename: string,
  output: OutputFormat,
): Body<typeof v1.CamelFileHashResponse> {
  const { hash, encoding } = encoded(result.digest, output);
  return { success: true as const, hash, algorithm: ALGORITHM, encoding, fileName: filename, fileSize: result.size, timestamp: stamp() };
}

export function camelHmacBody(result: JobResults['hmac'], output: OutputFormat): Body<typeof v1.CamelHmacResponse> {
  const { hash, encoding } = encoded(result.digest, output);
  return { success: true as const, hmac: hash, algorithm: ALGORITHM, encoding, timestamp: stamp() };
}

/** Field mapping: docs/limits.md "usage() → v1 Set A /v1/usage"; `maxFileSize` is the size enforced (plan, capped by MAX_FILE_BYTES). */
export function camelUsageBody(usage: UsageSnapshot, maxFileSize: number): Body<typeof v1.CamelUsageResponse> {
  return {
    success: true as const,
    account: {
      tier: usage.tier,
      quota: { daily: figure(usage.dailyQuota), used: usage.used, remaining: figure(usage.remaining), resetTime: stamp(usage.resetTime) },
      rateLimit: { requestsPerSecond: figure(usage.requestsPerSecond.v1), maxFileSize },
    },
    timestamp: stamp(),
  };
}

// ---- Set B -----------------------------------------------------------------------------------

export function textHashBody(result: JobResults['hash']): Body<typeof v1.TextHashResponse> {
  return { hash: result.digest, input_length: result.size, timestamp: stamp() };
}

export function snakeFileHashBody(result: JobResults['file'], filename: string): Body<typeof v1.SnakeFileHashResponse> {
  return { hash: result.digest, filename, filesize: result.size, timestamp: stamp() };
}

/** `url` is the URL as supplied (not the one after redirects); content_length the bytes hashed. */
export function urlHashBody(result: JobResults['url'], url: string): Body<typeof v1.UrlHashResponse> {
  return { hash: result.digest, url, content_length: result.size, timestamp: stamp() };
}

/** `expected` echoes the caller's hash as sent; `computed` is lowercase hex. */
export function textVerifyBody(result: JobResults['verify'], expected: string): Body<typeof v1.TextVerifyResponse> {
  return { valid: result.valid, expected, computed: result.digest, timestamp: stamp() };
}

/** `result` is a file job that carried `expected` (its `valid` computed by the job). */
export function fileVerifyBody(result: JobResults['file'], expected: string, filename: string): Body<typeof v1.FileVerifyResponse> {
  return { valid: result.valid === true, expected, computed: result.digest, filename, timestamp: stamp() };
}

export function batchHashBody(result: JobResults['batch']): Body<typeof v1.BatchHashResponse> {
  const results = result.results.map((item) => ({ id: item.id, hash: item.digest, input_length: item.size }));
  return { results, count: results.length, timestamp: stamp() };
}

/**
 * `items[i].expected` is item i's hash as sent; batch results keep request order and carry `valid`,
 * computed by the job (shared/jobs/compute.ts).
 */
export function batchVerifyBody(
  result: JobResults['batch'],
  items: ReadonlyArray<{ expected: string }>,
): Body<typeof v1.BatchVerifyResponse> {
  const results = result.results.map((item, i) => ({
    id: item.id,
    valid: item.valid === true,
    expected: items[i]?.expected ?? '',
    computed: item.digest,
  }));
  return { results, count: results.length, timestamp: stamp() };
}

export function compareBody(match: boolean): Body<typeof v1.CompareResponse> {
  return { match, timestamp: stamp() };
}

/** Field mapping: docs/limits.md "Set B status". */
export function statusBody(status: ServiceStatus, usage: UsageSnapshot): Body<typeof v1.StatusResponse> {
  const window = usage.minuteWindow;
  return {
    status,
    version: V1_VERSION,
    rate_limit: { limit: figure(window.limit), remaining: figure(window.remaining), reset: stamp(new Date(window.resetAtUnix * 1000)) },
    account: { plan: usage.plan, requests_today: usage.used, requests_quota: figure(usage.dailyQuota) },
    timestamp: stamp(),
  };
}
