/**
 * An Idempotency-Key is stored with the fingerprint of its request (method, path, query without
 * the credential, SHA-224 of the body): the same request again is replayed; the key with another
 * request is 422 IDEMPOTENCY_KEY_REUSED and nothing runs. Multipart uploads are fingerprinted by
 * their file and fields, since clients choose a new random boundary for every request.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { fileForm } from '../helpers/multipart.js';

const REUSED = {
  code: 'IDEMPOTENCY_KEY_REUSED',
  message: 'Idempotency-Key was already used for a different request',
  details: 'header: idempotency-key; it was first used with another method, path, query or body — use a new key for a new request',
};

describe('Idempotency-Key fingerprints', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const post = (path: string, key: string, body: BodyInit, type?: string) =>
    fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': s.keys.production, 'idempotency-key': key, ...(type ? { 'content-type': type } : {}) },
      body,
    });
  const storedBlobs = () =>
    fs
      .readdirSync(path.join(s.config.dataDir, 'blobs'), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name);
  const form = (bytes: Buffer, fields: Record<string, string> = {}) => fileForm(bytes, { fields });

  it('/v2/batch: the same body replays; another body is 422', async () => {
    const key = randomUUID();
    const body = JSON.stringify({ items: [{ id: 'a', data: 'x' }] });
    const first = await post('/v2/batch?async=true', key, body);
    expect(first.status).toBe(202);
    const { job_id } = await first.json();
    const again = await post('/v2/batch?async=true', key, body);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).job_id).toBe(job_id);
    const other = await post('/v2/batch?async=true', key, JSON.stringify({ items: [{ id: 'a', data: 'y' }] }));
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ success: false, error: REUSED });
  });

  it('the same key on another path or with another query is 422', async () => {
    const key = randomUUID();
    expect((await post('/v2/stream?async=true', key, 'abc', 'application/octet-stream')).status).toBe(202);
    expect((await post('/v2/stream?async=true&output=base64', key, 'abc', 'application/octet-stream')).status).toBe(422);
    const file = await post('/v2/file?async=true', key, form(Buffer.from('abc')));
    expect(file.status).toBe(422);
    expect((await file.json()).error).toEqual(REUSED);
  });

  it('/v2/file: the same file and fields replay across new boundaries; another file or field is 422; no blob is kept', async () => {
    const key = randomUUID();
    const bytes = randomBytes(50_000);
    const first = await post('/v2/file?async=true', key, form(bytes, { chunk_size: '65536' }));
    expect(first.status).toBe(202);
    const again = await post('/v2/file?async=true', key, form(bytes, { chunk_size: '65536' }));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).job_id).toBe((await first.json()).job_id);
    expect((await post('/v2/file?async=true', key, form(randomBytes(50_000), { chunk_size: '65536' }))).status).toBe(422);
    expect((await post('/v2/file?async=true', key, form(bytes, { chunk_size: '1024' }))).status).toBe(422);
    // The first job deletes its blob when it finishes; the refused and replayed uploads at once.
    await expect.poll(() => storedBlobs(), { timeout: 5000, interval: 20 }).toEqual([]);
  });

  it('/v2/stream: the same bytes replay, other bytes are 422', async () => {
    const key = randomUUID();
    const bytes = randomBytes(10_000);
    expect((await post('/v2/stream?async=true', key, bytes, 'application/octet-stream')).status).toBe(202);
    const again = await post('/v2/stream?async=true', key, bytes, 'application/octet-stream');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await post('/v2/stream?async=true', key, randomBytes(10_000), 'application/octet-stream')).status).toBe(422);
  });

  it('the credential is not part of the request: the key in the query or the header is the same request', async () => {
    const key = randomUUID();
    const body = JSON.stringify({ items: [{ id: 'a', data: 'z' }] });
    const first = await post('/v2/batch?async=true', key, body);
    const viaQuery = await fetch(`${s.url}/v2/batch?async=true&api_key=${s.keys.production}`, {
      method: 'POST',
      headers: { 'idempotency-key': key },
      body,
    });
    expect(viaQuery.status).toBe(202);
    expect((await viaQuery.json()).job_id).toBe((await first.json()).job_id);
  });
});
