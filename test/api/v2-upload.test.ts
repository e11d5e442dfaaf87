import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson } from '../helpers/api-server.js';
import { sha224Base64, sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { startTarget, TARGETS, type Target } from '../helpers/targets.js';
import { waitFor } from '../helpers/wait.js';

function blobFiles(s: Target): string[] {
  return s.storedBlobs();
}

/** Uploads are deleted once answered, a moment after the response. */
const blobsDeleted = (s: Target): Promise<true> => waitFor(() => blobFiles(s).length === 0, { what: "the upload's blob to be deleted" });

describe.each(TARGETS)('/v2 uploads on %s', (target) => {
  let s: Target;
  let h: Record<string, string>;
  beforeAll(async () => {
    s = await startTarget(target, { MAX_FILE_BYTES: String(2 * 1024 * 1024), MAX_STREAM_BYTES: String(3 * 1024 * 1024) });
    h = { 'x-api-key': s.keys.production };
  });
  afterAll(() => s.close());

  const form = (bytes: Buffer, fields: Record<string, string> = {}, field = 'file'): FormData =>
    fileForm(bytes, { fields, field, filename: 'report.bin' });

  describe('POST /v2/file', () => {
    it('hashes a multipart file and reports its name, size and chunk size', async () => {
      const bytes = randomBytes(1024 * 1024 + 17);
      const res = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: h, body: form(bytes, { chunk_size: '65536' }) });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body).toMatchObject({
        success: true,
        hash: sha224Hex(bytes),
        algorithm: 'SHA-224',
        encoding: 'hex',
        filename: 'report.bin',
        size: bytes.length,
        chunk_size: 65536,
      });
      expect(Number.isInteger(body.processing_time_ms)).toBe(true);
      await blobsDeleted(s);
      expect(blobFiles(s)).toEqual([]);
    });

    it('defaults chunk_size to 1 MiB and honours output', async () => {
      const bytes = Buffer.from('hello');
      const res = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: h, body: form(bytes, { output: 'base64' }) });
      expect(await res.json()).toMatchObject({
        hash: sha224Base64(bytes),
        encoding: 'base64',
        chunk_size: 1048576,
        size: 5,
      });
    });

    it('refuses a multipart without a file field with 400 naming it, and keeps nothing', async () => {
      const res = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: h, body: form(Buffer.from('x'), {}, 'upload') });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toEqual({
        code: 'INVALID_INPUT',
        message: 'multipart field "file" (a file) is required',
        details: 'field: file',
      });
      await blobsDeleted(s);
      expect(blobFiles(s)).toEqual([]);
    });

    it('refuses a non-multipart body with 400', async () => {
      const res = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(400);
      expect((await res.json()).error.details).toBe('field: file');
    });

    it('refuses a bad chunk_size and removes the stored upload', async () => {
      const res = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: h, body: form(Buffer.from('x'), { chunk_size: 'big' }) });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'INVALID_INPUT', details: 'field: chunk_size' });
      await blobsDeleted(s);
      expect(blobFiles(s)).toEqual([]);
    });

    it('answers 413 FILE_TOO_LARGE past the limit and keeps nothing', async () => {
      const res = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: h, body: form(randomBytes(2 * 1024 * 1024 + 1)) });
      expect(res.status).toBe(413);
      expect((await res.json()).error).toMatchObject({ code: 'FILE_TOO_LARGE', details: `maximum size is ${2 * 1024 * 1024} bytes` });
      await blobsDeleted(s);
      expect(blobFiles(s)).toEqual([]);
    });
  });

  describe('POST /v2/stream', () => {
    it('hashes a chunked application/octet-stream body', async () => {
      const parts = [randomBytes(700_000), randomBytes(900_001), randomBytes(3)];
      const body = new ReadableStream({
        start(c) {
          for (const p of parts) c.enqueue(p);
          c.close();
        },
      });
      const res = await fetch(`${s.url}/v2/stream`, {
        method: 'POST',
        headers: { ...h, 'content-type': 'application/octet-stream' },
        body,
        duplex: 'half',
      } as RequestInit);
      const json = await res.json();
      expect(res.status).toBe(200);
      expect(json).toMatchObject({
        success: true,
        hash: sha224Hex(Buffer.concat(parts)),
        algorithm: 'SHA-224',
        encoding: 'hex',
        size: 1_600_004,
      });
    });

    it('refuses another content type with 415', async () => {
      const res = await fetch(`${s.url}/v2/stream`, { method: 'POST', headers: { ...h, 'content-type': 'text/plain' }, body: 'abc' });
      expect(res.status).toBe(415);
      expect((await res.json()).error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: 'header: content-type' });
    });

    it('answers 413 the moment a chunked body passes the limit', async () => {
      let sent = 0;
      const body = new ReadableStream({
        pull(c) {
          if (sent >= 64 * 1024 * 1024) return c.close();
          sent += 1024 * 1024;
          c.enqueue(new Uint8Array(1024 * 1024));
        },
      });
      const res = await fetch(`${s.url}/v2/stream`, {
        method: 'POST',
        headers: { ...h, 'content-type': 'application/octet-stream' },
        body,
        duplex: 'half',
      } as RequestInit).catch((e: unknown) => e);
      // The server answers and closes; the client stops well before its 64 MiB.
      if (res instanceof Response) {
        expect(res.status).toBe(413);
        expect((await res.json()).error.code).toBe('FILE_TOO_LARGE');
      }
      expect(sent).toBeLessThan(64 * 1024 * 1024);
      await blobsDeleted(s);
      expect(blobFiles(s)).toEqual([]);
    });

    it('refuses a declared Content-Length over the limit before reading', async () => {
      const res = await fetch(`${s.url}/v2/stream`, {
        method: 'POST',
        headers: { ...h, 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(3 * 1024 * 1024 + 1),
      });
      expect(res.status).toBe(413);
    });
  });

  describe('async jobs', () => {
    it('?async=true answers 202 and GET /v2/jobs/{id} returns the synchronous body', async () => {
      const bytes = randomBytes(100_000);
      const res = await fetch(`${s.url}/v2/file?async=true`, { method: 'POST', headers: h, body: form(bytes) });
      expect(res.status).toBe(202);
      const accepted = await res.json();
      expect(accepted).toEqual({ success: true, job_id: expect.any(String), status: 'queued', status_url: `/v2/jobs/${accepted.job_id}` });
      const job = await waitFor(
        async () => {
          const polled = await getJson(`${s.url}${accepted.status_url}`, h);
          return polled.body.status === 'completed' && polled;
        },
        { what: 'the job to complete' },
      );
      expect(job.status).toBe(200);
      expect(job.body).toMatchObject({
        success: true,
        job_id: accepted.job_id,
        status: 'completed',
        hash: sha224Hex(bytes),
        filename: 'report.bin',
        size: 100_000,
        algorithm: 'SHA-224',
      });
    });

    it('an Idempotency-Key returns the existing job', async () => {
      const headers = { ...h, 'idempotency-key': 'batch-42' };
      const body = JSON.stringify({ items: [{ id: 'a', data: 'x' }] });
      const first = await fetch(`${s.url}/v2/batch?async=true`, { method: 'POST', headers, body });
      const second = await fetch(`${s.url}/v2/batch?async=true`, { method: 'POST', headers, body });
      const [a, b] = [await first.json(), await second.json()];
      expect(a.job_id).toBe(b.job_id);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      // Once the first job has finished, a replay says so instead of "queued".
      await waitFor(async () => (await getJson(`${s.url}/v2/jobs/${a.job_id}`, h)).body.status === 'completed', {
        what: 'the first job to complete',
      });
      const third = await fetch(`${s.url}/v2/batch?async=true`, { method: 'POST', headers, body });
      expect(await third.json()).toMatchObject({ job_id: a.job_id, status: 'completed' });
    });

    it('another account cannot read a job (404), nor can anyone read an unknown id', async () => {
      const res = await fetch(`${s.url}/v2/batch?async=true`, {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ items: [{ id: 'a', data: 'x' }] }),
      });
      const { job_id } = await res.json();
      const other = await s.newKey({ plan: 'pro' });
      // Read through the other API node where there is one: any node serves any job.
      const foreign = await getJson(`${s.urls.at(-1)}/v2/jobs/${job_id}`, { 'x-api-key': other });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('NOT_FOUND');
      const unknown = await getJson(`${s.url}/v2/jobs/00000000-0000-0000-0000-000000000000`, h);
      expect(unknown.status).toBe(404);
    });
  });
});
