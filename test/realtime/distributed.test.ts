/**
 * The realtime interfaces on a distributed deployment of real processes: 2 API nodes
 * (dist/api.js), workers (dist/worker.js), Redis, PostgreSQL and S3 (test/helpers/cluster.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { sha224Base64, sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { holdsFor, waitFor } from '../helpers/wait.js';
import { connectSocketIo, emitWithAck, openWhenSlotFree, pipeline, refusedUpgrade, WsClient, wsUrl } from './clients.js';

describe('realtime on 2 API nodes + workers', () => {
  let c: Cluster;
  beforeAll(async () => {
    // No worker yet: the job-push test submits while none runs, so the job is still queued when
    // the subscription is made, and only the finish event can deliver it.
    // The limiter's budget (LIMITER_TIMEOUT_MS, 2 s) answers 503 when Redis is slow to count; on a
    // loaded 2-core machine 10,000 pipelined messages can queue past it. This file tests what the
    // realtime path answers, not the limiter's budget (test/limits/redis-down.test.ts does).
    c = await startCluster({ apiNodes: 2, workers: 0, env: { LIMITER_TIMEOUT_MS: '30000' } });
  }, 120_000);
  afterAll(() => c?.close());

  it('10,000 hash messages on one /v2/ws connection to node A are all answered, each correct', async () => {
    const client = await WsClient.open(wsUrl(c.url(0), c.keys.production));
    const replies = await pipeline(client, 10_000, 256, (i) => ({
      action: 'hash',
      data: `message ${i}`,
      options: { output: i % 2 ? 'hex' : 'base64' },
    }));
    const wrong = replies.filter((reply, i) => reply.id !== `m${i}` || reply.hash !== (i % 2 ? sha224Hex : sha224Base64)(`message ${i}`));
    expect(wrong).toEqual([]);
    await client.close();
  }, 120_000);

  it('an async file job submitted over HTTP to node A is pushed once to socket.io clients on node B (and on A)', async () => {
    const auth = { 'x-api-key': c.keys.production };
    const bytes = Buffer.alloc(300_000, 7);
    const res = await fetch(`${c.url(0)}/v2/file?async=true`, {
      method: 'POST',
      headers: auth,
      body: fileForm(bytes, { filename: 'sevens.bin' }),
    });
    expect(res.status).toBe(202);
    const { job_id: jobId } = (await res.json()) as { job_id: string };

    const onB = await connectSocketIo(c.url(1), { api_key: c.keys.production });
    const onA = await connectSocketIo(c.url(0), { api_key: c.keys.production });
    const events = new Map<Socket, any[]>([
      [onB, []],
      [onA, []],
    ]);
    for (const [socket, list] of events) socket.on('job', (body: unknown) => list.push(body));
    expect(await emitWithAck(onB, 'subscribe', jobId)).toEqual({ id: null, success: true, job_id: jobId, status: 'queued' });
    expect(await emitWithAck(onA, 'subscribe', { job_id: jobId })).toMatchObject({ success: true, status: 'queued' });

    await c.addWorker();
    await waitFor(() => events.get(onB)!.length > 0 && events.get(onA)!.length > 0, {
      timeoutMs: 20_000,
      what: 'the job event on both nodes',
    });
    await holdsFor(() => events.get(onB)!.length === 1 && events.get(onA)!.length === 1, {
      forMs: 500,
      what: 'one job event per socket (no duplicate from the other node)',
    });
    const polled = (await (await fetch(`${c.url(0)}/v2/jobs/${jobId}`, { headers: auth })).json()) as Record<string, unknown>;
    for (const list of events.values()) {
      expect(list).toHaveLength(1);
      expect(list[0]).toEqual(polled);
    }
    expect(polled).toMatchObject({
      success: true,
      job_id: jobId,
      status: 'completed',
      hash: sha224Hex(bytes),
      filename: 'sevens.bin',
      size: bytes.length,
    });
    onA.close();
    onB.close();
  }, 60_000);

  it('inputs over INLINE_MAX_BYTES go through the workers and come back on the connection', async () => {
    const client = await WsClient.open(wsUrl(c.url(1), c.keys.production));
    const inputs = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(70_000));
    const replies = await pipeline(client, inputs.length, 20, (i) => ({ action: 'hash', data: inputs[i] }));
    replies.forEach((reply, i) => expect(reply.hash).toBe(sha224Hex(inputs[i]!)));
    await client.close();
  }, 60_000);

  it('connection limits hold across nodes (free plan: 1)', async () => {
    const secret = await c.newKey({ plan: 'free' });
    const onA = await WsClient.open(wsUrl(c.url(0), secret));
    const refused = await refusedUpgrade(wsUrl(c.url(1), secret));
    expect(refused).toMatchObject({ status: 429, body: { success: false, error: { code: 'TOO_MANY_CONNECTIONS' } } });
    await expect(connectSocketIo(c.url(1), { api_key: secret })).rejects.toMatchObject({
      data: { error: { code: 'TOO_MANY_CONNECTIONS' } },
    });
    await onA.close();
    const onB = await openWhenSlotFree(wsUrl(c.url(1), secret));
    expect((await onB.request({ action: 'hash', id: 'x', data: 'abc' })).success).toBe(true);
    await onB.close();
  });

  it('rate limits hold across nodes: one basic account on two nodes shares one 50/s budget', async () => {
    const secret = await c.newKey({ plan: 'basic' });
    const onA = await WsClient.open(wsUrl(c.url(0), secret));
    const onB = await WsClient.open(wsUrl(c.url(1), secret));
    for (let i = 0; i < 150; i++) (i % 2 ? onA : onB).send({ action: 'hash', id: `r${i}`, data: 'abc' });
    await Promise.all([onA.waitForReplies(75), onB.waitForReplies(75)]);
    const all = [...onA.replies, ...onB.replies];
    const ok = all.filter((r) => r.success).length;
    // A burst straddles at most one window boundary: at most 2 × 50 pass, whichever node they hit.
    expect(ok).toBeLessThanOrEqual(100);
    expect(ok).toBeGreaterThanOrEqual(50);
    for (const r of all.filter((x) => !x.success)) expect(r.error.code).toBe('RATE_LIMIT_EXCEEDED');
    await Promise.all([onA.close(), onB.close()]);
  });

  it('SIGTERM: a node closes its /v2/ws clients with 1001 and exits 0', async () => {
    const extra = await c.addApi();
    const client = await WsClient.open(wsUrl(extra.url, c.keys.production));
    const io = await connectSocketIo(extra.url, { api_key: c.keys.production });
    const ioClosed = new Promise<string>((resolve) => io.once('disconnect', (reason) => resolve(reason)));
    const started = Date.now();
    expect(await extra.proc.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await client.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await ioClosed).toMatch(/disconnect|transport close/);
  });
});
