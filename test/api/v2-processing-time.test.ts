/**
 * processing_time_ms counts from the request's arrival, so a body that takes long to arrive or to
 * parse (a 1000-item batch) shows in it rather than hiding before the clock starts.
 */
import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTarget, type Target } from '../helpers/targets.js';
import { SHA224_ABC } from '../helpers/digests.js';
import { stallFor } from '../helpers/wait.js';

const STALL_MS = 300;
let s: Target;

beforeAll(async () => {
  s = await startTarget('sqlite');
});
afterAll(() => s.close());

/** POSTs `body` in two halves with a stall between them; resolves with the parsed answer. */
async function postInTwoHalves(path: string, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const req = http.request(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': s.keys.production, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = once(req, 'response') as Promise<[http.IncomingMessage]>;
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  // The stall is the input under test (a slow sender), not a wait for an event.
  await stallFor(STALL_MS);
  req.end(body.slice(half));
  const [res] = await answered;
  let text = '';
  for await (const chunk of res) text += String(chunk);
  return { status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> };
}

it.each([
  ['/v2/hash', { data: 'abc' }],
  ['/v2/hmac', { data: 'abc', key: 'k' }],
  ['/v2/batch', { items: [{ id: 'a', data: 'abc' }] }],
])('%s counts the time its body took to arrive', async (path, body) => {
  const { status, json } = await postInTwoHalves(path, JSON.stringify(body));
  expect(status).toBe(200);
  // Half the stall at least: the node may notice the request a few ms late when busy, and a clock
  // started after the body (as it used to be) reads ~0 here.
  expect(json.processing_time_ms).toBeGreaterThanOrEqual(STALL_MS / 2);
  if (path === '/v2/hash') expect(json.hash).toBe(SHA224_ABC);
});
