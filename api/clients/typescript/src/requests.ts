/** JSON requests shared by the operation groups. */
import type { ClientContext, RequestOptions } from './context.js';

/** POST a JSON body to a pure computation: safe to send twice, so retried. */
export async function postJson<T>(
  context: ClientContext,
  operation: string,
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const reply = await context.transport.request({
    operation,
    method: 'POST',
    path,
    generation: path.startsWith('/v1/') ? 'v1' : 'v2',
    json: body,
    retryable: true,
    timeoutMs: options.timeoutMs ?? context.timeoutMs,
    signal: options.signal,
  });
  return reply.body as T;
}

export async function getJson<T>(context: ClientContext, operation: string, path: string, options: RequestOptions = {}): Promise<T> {
  const reply = await context.transport.request({
    operation,
    method: 'GET',
    path,
    generation: path.startsWith('/v1/') ? 'v1' : 'v2',
    retryable: true,
    timeoutMs: options.timeoutMs ?? context.timeoutMs,
    signal: options.signal,
  });
  return reply.body as T;
}
