/**
 * One delivery attempt: a POST of the signed body to the endpoint, through the same SSRF guard
 * as URL jobs (shared/net/guarded-connect.ts). Every attempt resolves the name again and dials
 * only an address the policy allows, so a receiver's DNS answer cannot change between "checked"
 * and "dialed" (rebinding), and a name that pointed at a public address yesterday and at
 * 169.254.169.254 today is refused today. Redirects are never followed (a 3xx is a failure).
 */
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { AddressDeniedError, guardedConnector } from '../net/guarded-connect.js';
import type { SignedHeaders } from './signature.js';

/** Bytes of the response body kept for the delivery log; the rest is not read. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendPolicy {
  timeoutMs: number;
  /** WEBHOOK_ALLOW_CIDRS. */
  allowCidrs: readonly string[];
  /** Injected in tests (a name that resolves to loopback). */
  lookup?: LookupFunction;
}

export interface AttemptOutcome {
  /** HTTP status, absent when no response came (refused, timed out, reset). */
  status?: number;
  latencyMs: number;
  /** Why it failed without a status: 'ssrf:<rule>', 'timeout', or the error's code. */
  error?: string;
  retryAfter?: string;
  bodyExcerpt?: string;
}

export async function sendAttempt(url: string, headers: SignedHeaders, body: string, policy: SendPolicy): Promise<AttemptOutcome> {
  const started = performance.now();
  // One Agent per attempt: no connection or DNS answer outlives the check made for it.
  const agent = new Agent({
    connect: guardedConnector({ allowCidrs: policy.allowCidrs, lookup: policy.lookup, connectTimeoutMs: policy.timeoutMs }),
    headersTimeout: policy.timeoutMs,
    bodyTimeout: policy.timeoutMs,
  });
  const signal = AbortSignal.timeout(policy.timeoutMs);
  try {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      signal,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'sha224d-webhooks/1' },
      body,
    });
    const bodyExcerpt = await readExcerpt(res.body);
    const retryAfter = res.headers['retry-after'];
    return {
      status: res.statusCode,
      latencyMs: Math.round(performance.now() - started),
      bodyExcerpt,
      ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
    };
  } catch (err) {
    return { latencyMs: Math.round(performance.now() - started), error: describe(err, signal) };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

async function readExcerpt(stream: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } catch {
    // A body that breaks off is still an answer: its status counts.
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
}

function describe(err: unknown, signal: AbortSignal): string {
  let cause: unknown = err;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    if (cause instanceof AddressDeniedError) return `ssrf:${cause.rule}`;
    cause = cause.cause;
  }
  if (signal.aborted) return 'timeout';
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'network-error';
}
