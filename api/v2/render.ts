/**
 * v2 response bodies (docs/api.md "Resources"). One function per shape;
 * synchronous responses and finished async jobs (GET /v2/jobs/{id}) render through the same ones.
 */
import type { OutputFormat } from '../../shared/hashing/encoding.js';
import type { JobPayloads, JobResults } from '../../shared/jobs/contracts.js';
import type { JobRecord } from '../../shared/queue/types.js';
import { isoMillisAt } from '../../shared/time.js';
import { encoded } from '../http/digest-output.js';
import type { Body } from '../schemas/common.js';
import type * as v2 from '../schemas/v2.js';

export interface Timing {
  /** Epoch milliseconds. */
  finishedAt: number;
  processingMs: number;
}

export function timingSince(startedMs: number): Timing {
  return { finishedAt: Date.now(), processingMs: Math.round(performance.now() - startedMs) };
}

function stamp(t: Timing): { timestamp: string; processing_time_ms: number } {
  return { timestamp: isoMillisAt(t.finishedAt), processing_time_ms: t.processingMs };
}

export function hashBody(result: JobResults['hash'], output: OutputFormat, t: Timing): Body<typeof v2.HashResponse> {
  return { success: true as const, ...encoded(result.digest, output), algorithm: 'SHA-224' as const, ...stamp(t) };
}

export function verifyBody(result: JobResults['verify'], providedHash: string): Body<typeof v2.VerifyResponse> {
  return {
    success: true as const,
    valid: result.valid,
    message: result.valid ? 'Hash matches the data' : 'Hash does not match the data',
    expected_hash: result.digest,
    provided_hash: providedHash,
  };
}

export function hmacBody(result: JobResults['hmac'], output: OutputFormat, t: Timing): Body<typeof v2.HmacResponse> {
  const { hash, encoding } = encoded(result.digest, output);
  return { success: true as const, hmac: hash, algorithm: 'HMAC-SHA-224' as const, encoding, ...stamp(t) };
}

export function batchBody(result: JobResults['batch'], output: OutputFormat, t: Timing): Body<typeof v2.BatchResponse> {
  // Results hold hex digests, so hex output (the default) needs no re-encoding per item.
  const results =
    output === 'hex'
      ? result.results.map((item) => ({ id: item.id, hash: item.digest }))
      : result.results.map((item) => ({ id: item.id, hash: encoded(item.digest, output).hash }));
  return {
    success: true as const,
    results,
    count: results.length,
    algorithm: 'SHA-224' as const,
    encoding: encoded('', output).encoding,
    ...stamp(t),
  };
}

export function fileBody(result: JobResults['file'], payload: JobPayloads['file'], t: Timing): Body<typeof v2.FileResponse> {
  return {
    success: true as const,
    ...encoded(result.digest, payload.output),
    algorithm: 'SHA-224' as const,
    encoding: encoded('', payload.output).encoding,
    filename: payload.filename,
    size: result.size,
    chunk_size: payload.chunkSize,
    ...(result.verified === true ? { verified: true as const } : {}),
    ...stamp(t),
  };
}

export function streamBody(result: JobResults['stream'], payload: JobPayloads['stream'], t: Timing): Body<typeof v2.StreamResponse> {
  return {
    success: true as const,
    ...encoded(result.digest, payload.output),
    algorithm: 'SHA-224' as const,
    size: result.size,
    chunk_size: payload.chunkSize,
    ...(result.verified === true ? { verified: true as const } : {}),
    ...stamp(t),
  };
}

/** The body the synchronous call would have returned, for a finished async job. */
function finishedJobBody(record: JobRecord): Record<string, unknown> | undefined {
  if (record.state !== 'completed' || record.result === undefined || record.finishedAt === undefined) return undefined;
  const t: Timing = { finishedAt: record.finishedAt, processingMs: record.finishedAt - record.createdAt };
  switch (record.kind) {
    case 'batch':
      return batchBody(record.result, record.payload.output, t);
    case 'file':
      return fileBody(record.result, record.payload, t);
    case 'stream':
      return streamBody(record.result, record.payload, t);
    default:
      return { success: true, digest: record.result.digest, timestamp: isoMillisAt(t.finishedAt) };
  }
}

/** The body GET /v2/jobs/{id} answers for this record (also pushed as socket.io `job` events). */
export function jobStatusBody(record: JobRecord): Record<string, unknown> {
  const base = { job_id: record.id, status: record.state };
  if (record.state === 'failed') {
    const error = record.error ?? { code: 'INTERNAL_ERROR', message: 'Internal error' };
    return { success: false, ...base, error: { code: error.code, message: error.message, details: error.details ?? '' } };
  }
  return { ...(finishedJobBody(record) ?? { success: true }), ...base };
}
