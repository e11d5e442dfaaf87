/**
 * The hashing operations every transport shares: v1 Set A, v1 Set B, v2 and the realtime
 * sessions differ only in the schema that checks the request (api/schemas/) and the renderer
 * that shapes the answer. Inputs arrive checked and measured (EncodedInput); verification is
 * computed in the job (shared/jobs/compute.ts), never by a renderer.
 */
import type { Principal } from '../../shared/auth/principal.js';
import { hexDigestsEqual } from '../../shared/hashing/verify.js';
import type { BatchJob, JobResults, UrlJob } from '../../shared/jobs/contracts.js';
import type { WebhookTarget } from '../../shared/queue/types.js';
import { resolveTimeoutMs } from '../../shared/net/url-timeout.js';
import { checkUrl, parseUrl } from '../../shared/net/url-policy.js';
import type { ApiDeps } from '../deps.js';
import type { Idempotency } from '../http/idempotency.js';
import type { EncodedInput } from '../schemas/common.js';

type Executor = Pick<ApiDeps, 'executor'>;

/** A batch as its schema yields it: the job's fields and the decoded size of all its items. */
export interface CheckedBatch extends BatchJob {
  bytes: number;
}

/** Answered in this turn when computed on this node (JobExecutor.runNow); a promise when queued. */
type Soon<T> = T | Promise<T>;

export function hashInput(deps: Executor, principal: Principal, input: EncodedInput): Soon<JobResults['hash']> {
  return deps.executor.runNow('hash', { data: input.data, encoding: input.encoding }, principal, input.bytes);
}

/** `expected`: the caller's hex digest, compared in constant time by the job. */
export function verifyInput(deps: Executor, principal: Principal, input: EncodedInput, expected: string): Soon<JobResults['verify']> {
  return deps.executor.runNow('verify', { data: input.data, encoding: input.encoding, expected }, principal, input.bytes);
}

export function hmacInput(deps: Executor, principal: Principal, input: EncodedInput, key: EncodedInput): Soon<JobResults['hmac']> {
  const payload = { data: input.data, encoding: input.encoding, key: key.data, keyEncoding: key.encoding };
  return deps.executor.runNow('hmac', payload, principal, input.bytes + key.bytes);
}

export function hashBatch(deps: Executor, principal: Principal, batch: CheckedBatch): Promise<JobResults['batch']> {
  return deps.executor.run('batch', batchJob(batch), principal, batch.bytes);
}

export function submitBatch(
  deps: Executor,
  principal: Principal,
  batch: CheckedBatch,
  idempotency: Idempotency | undefined,
  webhook?: WebhookTarget,
): Promise<{ id: string; created: boolean }> {
  return deps.executor.submit('batch', batchJob(batch), principal, idempotency, webhook);
}

function batchJob({ items, encoding, parallel, output }: CheckedBatch): BatchJob {
  return { items, encoding, parallel, output };
}

/**
 * Fetch a URL on a worker and hash its body. What the URL alone rules out is refused before
 * queueing; the worker checks again, and checks every address it dials and every redirect hop
 * (docs/ssrf.md). Never inline: the fetch happens away from the API node, and the wait covers the
 * fetch's own timeout plus queueing slack before JOB_TIMEOUT.
 */
export function hashUrl(
  deps: Pick<ApiDeps, 'executor' | 'config' | 'maxUploadBytes'>,
  principal: Principal,
  request: { url: string; timeout?: number | undefined; log?: boolean },
): Promise<JobResults['url']> {
  const timeoutMs = resolveTimeoutMs(request.timeout);
  checkUrl(parseUrl(request.url), { allowLoopback: deps.config.URL_FETCH_ALLOW_LOOPBACK });
  // `log` rides in the job so that, past JOB_TIMEOUT, reading the finished job logs it (docs/proving.md).
  const payload: UrlJob = {
    url: request.url,
    timeoutMs,
    maxBytes: deps.maxUploadBytes(principal, 'v1-url'),
    ...(request.log === true ? { log: true as const } : {}),
  };
  return deps.executor.run('url', payload, principal, undefined, timeoutMs + URL_QUEUE_SLACK_MS);
}

const URL_QUEUE_SLACK_MS = 5000;

/** v1 Set B compare: constant-time equality of two hex strings, any case. */
export function compareDigests(a: string, b: string): boolean {
  return hexDigestsEqual(a, b);
}
