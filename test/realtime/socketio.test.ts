/** socket.io namespace /v2 in embedded mode, with the real socket.io-client. */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobStatusBody } from '../../api/v2/render.js';
import { getJson, postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC as ABC, sha224Base64, sha224Hex } from '../helpers/digests.js';
import { holdsFor, waitFor } from '../helpers/wait.js';
import { connectSocketIo, connectSocketIoWhenSlotFree, emitWithAck, openWhenSlotFree, refusedUpgrade, WsClient, wsUrl } from './clients.js';

/** How long a test watches for a second `job` event that must not come. */
const DUPLICATE_WINDOW_MS = 300;

async function connectError(promise: Promise<Socket>): Promise<any> {
  try {
    const socket = await promise;
    socket.close();
  } catch (err) {
    return (err as { data?: unknown }).data;
  }
  throw new Error('connected');
}

/** Every `job` event the socket receives. */
function collectJobs(socket: Socket): any[] {
  const events: any[] = [];
  socket.on('job', (body: unknown) => events.push(body));
  return events;
}

describe('socket.io /v2 (embedded)', () => {
  let s: TestServer;
  let socket: Socket;
  beforeAll(async () => {
    s = await startTestServer({ realtime: {} });
    socket = await connectSocketIo(s.url, { api_key: s.keys.production });
  });
  afterAll(async () => {
    socket.close();
    await s.close();
  });

  it('hash: the acknowledgement carries the /v2/ws reply shape', async () => {
    const reply = await emitWithAck(socket, 'hash', { id: 's1', data: 'abc' });
    expect(reply).toEqual({
      id: 's1',
      success: true,
      hash: ABC,
      algorithm: 'SHA-224',
      encoding: 'hex',
      timestamp: expect.any(String),
      processing_time_ms: expect.any(Number),
    });
    expect(
      await emitWithAck(socket, 'hash', { action: 'hash', data: 'ff00', options: { encoding: 'hex', output: 'base64' } }),
    ).toMatchObject({
      id: null,
      success: true,
      hash: sha224Base64(Buffer.from('ff00', 'hex')),
    });
  });

  it('hash: errors in the acknowledgement, the connection stays up', async () => {
    expect(await emitWithAck(socket, 'hash', { id: 'bad', data: 'zz', options: { encoding: 'hex' } })).toEqual({
      id: 'bad',
      success: false,
      error: { code: 'INVALID_INPUT', message: 'data is not valid hex (even number of 0-9a-f characters)', details: 'field: data' },
    });
    expect((await emitWithAck(socket, 'hash', 'not an object')).error.message).toBe('Message must be a JSON object');
    expect((await emitWithAck(socket, 'hash', { id: 'ok', data: 'abc' })).hash).toBe(ABC);
  });

  it('hash: 2,000 acknowledgements, 200 in flight, each correct', async () => {
    const replies: any[] = [];
    for (let start = 0; start < 2000; start += 200) {
      replies.push(
        ...(await Promise.all(
          Array.from({ length: 200 }, (_, k) => emitWithAck(socket, 'hash', { id: `c${start + k}`, data: `item ${start + k}` })),
        )),
      );
    }
    replies.forEach((reply, i) => expect(reply).toMatchObject({ id: `c${i}`, hash: sha224Hex(`item ${i}`) }));
  });

  it('hash: beyond 256 in flight the excess is answered RATE_LIMIT_EXCEEDED at once', async () => {
    const replies = await Promise.all(
      Array.from({ length: 2000 }, (_, i) => emitWithAck(socket, 'hash', { id: `f${i}`, data: `item ${i}` })),
    );
    const overloaded = replies.filter((r) => r.success === false);
    expect(overloaded.length).toBeGreaterThan(0);
    for (const r of overloaded)
      expect(r.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: expect.stringContaining('in flight') });
    for (const r of replies.filter((x) => x.success)) expect(r.hash).toBe(sha224Hex(`item ${r.id.slice(1)}`));
  });

  it('subscribe: one job event with the GET /v2/jobs/{id} body when an async job finishes', async () => {
    const jobs = collectJobs(socket);
    const auth = { 'x-api-key': s.keys.production };
    const accepted = await postJson(`${s.url}/v2/batch?async=true`, { items: [{ id: 'a', data: 'abc' }] }, auth);
    expect(accepted.status).toBe(202);
    const ack = await emitWithAck(socket, 'subscribe', { job_id: accepted.body.job_id });
    expect(ack).toMatchObject({
      success: true,
      job_id: accepted.body.job_id,
      status: expect.stringMatching(/^(queued|active|completed)$/),
    });
    await waitFor(() => jobs.length > 0, { what: 'the job event' });
    await holdsFor(() => jobs.length === 1, { forMs: DUPLICATE_WINDOW_MS, what: 'a single job event' });
    expect(jobs).toHaveLength(1);
    const polled = await getJson(`${s.url}/v2/jobs/${accepted.body.job_id}`, auth);
    expect(jobs[0]).toEqual(polled.body);
    expect(jobs[0]).toMatchObject({ job_id: accepted.body.job_id, status: 'completed', results: [{ id: 'a', hash: ABC }] });
    socket.off('job');
  });

  it('subscribe: a job that already finished is pushed at once (and once)', async () => {
    const auth = { 'x-api-key': s.keys.production };
    const accepted = await postJson(`${s.url}/v2/batch?async=true`, { items: [{ id: 'b', data: 'x' }] }, auth);
    await waitFor(async () => (await getJson(`${s.url}/v2/jobs/${accepted.body.job_id}`, auth)).body.status === 'completed', {
      what: 'the job to finish before the subscription',
    });
    const jobs = collectJobs(socket);
    const ack = await emitWithAck(socket, 'subscribe', accepted.body.job_id);
    expect(ack.status).toBe('completed');
    await waitFor(() => jobs.length > 0, { what: 'the job event' });
    await holdsFor(() => jobs.length === 1, { forMs: DUPLICATE_WINDOW_MS, what: 'a single job event' });
    expect(jobs).toHaveLength(1);
    socket.off('job');
  });

  it("subscribe: an unknown job, or another account's, is NOT_FOUND", async () => {
    expect(await emitWithAck(socket, 'subscribe', 'no-such-job')).toMatchObject({
      success: false,
      error: { code: 'NOT_FOUND', details: 'no such job' },
    });
    const other = await s.newKey({ plan: 'pro' });
    const accepted = await postJson(`${s.url}/v2/batch?async=true`, { items: [{ id: 'a', data: 'abc' }] }, { 'x-api-key': other.secret });
    expect(await emitWithAck(socket, 'subscribe', accepted.body.job_id)).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(await emitWithAck(socket, 'subscribe', { nope: 1 })).toMatchObject({
      success: false,
      error: { code: 'INVALID_INPUT', message: 'subscribe takes a job id string or {job_id}' },
    });
  });

  it('refuses a connection without a key, or with a bad one, as connect_error UNAUTHORIZED', async () => {
    expect(await connectError(connectSocketIo(s.url))).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key', details: expect.any(String) },
    });
    expect((await connectError(connectSocketIo(s.url, { api_key: 'nope' }))).error.code).toBe('UNAUTHORIZED');
  });

  it('accepts the api_key query parameter too', async () => {
    const viaQuery = await connectSocketIo(s.url, {}, { query: { api_key: s.keys.production } });
    expect((await emitWithAck(viaQuery, 'hash', { data: 'abc' })).hash).toBe(ABC);
    viaQuery.close();
  });

  it('read-only keys may subscribe but not hash; client keys may hash but not subscribe', async () => {
    const readOnly = await connectSocketIo(s.url, { api_key: s.keys.read_only });
    expect(await emitWithAck(readOnly, 'hash', { data: 'abc' })).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    expect((await emitWithAck(readOnly, 'subscribe', 'no-such-job')).error.code).toBe('NOT_FOUND');
    readOnly.close();
    expect((await connectError(connectSocketIo(s.url, { api_key: s.keys.client }))).error.code).toBe('FORBIDDEN');
    const client = await connectSocketIo(s.url, { api_key: s.keys.client }, { headers: { origin: 'https://app.example.com' } });
    expect((await emitWithAck(client, 'hash', { data: 'abc' })).hash).toBe(ABC);
    expect((await emitWithAck(client, 'subscribe', 'x')).error.code).toBe('FORBIDDEN');
    client.close();
  });

  it('/v2/ws and socket.io connections count together against the plan', async () => {
    const { secret } = await s.newKey({ plan: 'free' });
    const ws = await WsClient.open(wsUrl(s.url, secret));
    expect(await connectError(connectSocketIo(s.url, { api_key: secret }))).toMatchObject({
      success: false,
      error: { code: 'TOO_MANY_CONNECTIONS' },
    });
    await ws.close();
    const io = await connectSocketIoWhenSlotFree(s.url, { api_key: secret });
    expect((await refusedUpgrade(wsUrl(s.url, secret))).status).toBe(429);
    io.close();
    await (await openWhenSlotFree(wsUrl(s.url, secret))).close();
  });
});

describe('jobStatusBody', () => {
  it('renders a failed job as GET /v2/jobs/{id} does', () => {
    const body = jobStatusBody({
      id: 'j',
      kind: 'file',
      accountId: 'a',
      state: 'failed',
      payload: {} as never,
      error: { code: 'INVALID_INPUT', message: 'bad' },
      createdAt: 1,
      finishedAt: 2,
    });
    expect(body).toEqual({ success: false, job_id: 'j', status: 'failed', error: { code: 'INVALID_INPUT', message: 'bad', details: '' } });
  });
});
