/**
 * The tus 1.0 header rules of /v2/uploads as raw HTTP requests against an embedded server (what a
 * curl user sends): version negotiation, creation (with upload, deferred length), HEAD, PATCH
 * offsets, content type and checksums, termination, expiration and its sweep, limits, and the
 * finished upload's `file` job with verify on ingest (tus metadata `sha224`).
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { sha224Hex } from '../helpers/digests.js';
import { waitFor } from '../helpers/wait.js';
import fs from 'node:fs';
import path from 'node:path';

const TUS = { 'Tus-Resumable': '1.0.0' };
const OCTETS = { 'Content-Type': 'application/offset+octet-stream' };
const b64 = (s: string): string => Buffer.from(s).toString('base64');

function segmentFiles(s: TestServer): string[] {
  const dir = path.join(s.config.dataDir, 'blobs', 'resumable');
  try {
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe('tus 1.0 at /v2/uploads, raw HTTP, embedded', () => {
  let s: TestServer;
  let key: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer({ env: { MAX_STREAM_BYTES: String(8 * 1024 * 1024), CLIENT_KEY_MAX_UPLOAD_BYTES: '1024' } });
    key = { 'X-API-Key': s.keys.production };
  });
  afterAll(() => s.close());

  const create = (headers: Record<string, string>, body?: Uint8Array<ArrayBuffer>): Promise<Response> =>
    fetch(`${s.url}/v2/uploads`, { method: 'POST', headers: { ...key, ...TUS, ...headers }, ...(body ? { body } : {}) });
  const patch = (
    location: string,
    offset: number,
    body: Uint8Array<ArrayBuffer>,
    headers: Record<string, string> = {},
  ): Promise<Response> =>
    fetch(`${s.url}${location}`, {
      method: 'PATCH',
      headers: { ...key, ...TUS, ...OCTETS, 'Upload-Offset': String(offset), ...headers },
      body,
    });
  const head = (location: string): Promise<Response> => fetch(`${s.url}${location}`, { method: 'HEAD', headers: { ...key, ...TUS } });
  const bytes = (n: number): Uint8Array<ArrayBuffer> => new Uint8Array(randomBytes(n));

  it('OPTIONS announces the version, extensions, checksum algorithms and largest size, without a key', async () => {
    const res = await fetch(`${s.url}/v2/uploads`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-extension')!.split(',')).toEqual([
      'creation',
      'creation-with-upload',
      'creation-defer-length',
      'termination',
      'expiration',
      'checksum',
    ]);
    expect(res.headers.get('tus-checksum-algorithm')).toBe('sha1,sha224,sha256');
    expect(res.headers.get('tus-max-size')).toBe(String(8 * 1024 * 1024));
  });

  it('a missing or other Tus-Resumable is 412 with Tus-Version, in the v2 envelope, on every method', async () => {
    for (const [method, url, version] of [
      ['POST', '/v2/uploads', undefined],
      ['POST', '/v2/uploads', '0.2.2'],
      ['HEAD', '/v2/uploads/00000000000000000000000000000000', undefined],
      ['PATCH', '/v2/uploads/00000000000000000000000000000000', '2.0.0'],
      ['DELETE', '/v2/uploads/00000000000000000000000000000000', '1.0'],
    ] as const) {
      const res = await fetch(`${s.url}${url}`, {
        method,
        headers: { ...key, 'Upload-Length': '1', ...(version ? { 'Tus-Resumable': version } : {}) },
      });
      expect(res.status, `${method} ${version}`).toBe(412);
      expect(res.headers.get('tus-version')).toBe('1.0.0');
      expect(res.headers.get('tus-resumable')).toBe('1.0.0');
      if (method !== 'HEAD') expect(await errorCode(res)).toBe('TUS_VERSION_UNSUPPORTED');
    }
  });

  it('creation needs exactly one of Upload-Length and Upload-Defer-Length: 1, and a valid Upload-Metadata', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'Upload-Length': '5', 'Upload-Defer-Length': '1' },
      { 'Upload-Length': '-1' },
      { 'Upload-Length': '1.5' },
      { 'Upload-Defer-Length': '2' },
      { 'Upload-Length': '5', 'Upload-Metadata': 'filename not*base64' },
      { 'Upload-Length': '5', 'Upload-Metadata': `a ${b64('x')},a ${b64('y')}` },
      { 'Upload-Length': '5', 'Upload-Metadata': `sha224 ${b64('not-a-digest')}` },
    ];
    for (const headers of cases) {
      const res = await create(headers);
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(res.headers.get('tus-resumable')).toBe('1.0.0');
      expect(await errorCode(res)).toBe('INVALID_INPUT');
    }
  });

  it("creation answers 201 with Location, Upload-Expires and the caller's Tus-Max-Size; HEAD reports the upload", async () => {
    const res = await create({ 'Upload-Length': '10', 'Upload-Metadata': `filename ${b64('r.bin')},note` });
    expect(res.status).toBe(201);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/v2\/uploads\/[0-9a-f]{32}$/);
    expect(res.headers.get('tus-max-size')).toBe(String(8 * 1024 * 1024));
    const expires = Date.parse(res.headers.get('upload-expires')!);
    expect(Math.abs(expires - (Date.now() + 24 * 3600 * 1000))).toBeLessThan(60_000);
    const h = await head(location);
    expect(h.status).toBe(200);
    expect(h.headers.get('upload-offset')).toBe('0');
    expect(h.headers.get('upload-length')).toBe('10');
    expect(h.headers.get('upload-metadata')).toBe(`filename ${b64('r.bin')},note`);
    expect(h.headers.get('cache-control')).toBe('no-store');
    expect(h.headers.get('tus-resumable')).toBe('1.0.0');
  });

  it("Upload-Length over the plan's limit is 413 at creation; a client key gets only its small cap", async () => {
    const over = await create({ 'Upload-Length': String(8 * 1024 * 1024 + 1) });
    expect(over.status).toBe(413);
    expect(await errorCode(over)).toBe('FILE_TOO_LARGE');
    const client = { 'X-API-Key': s.keys.client, Origin: 'https://app.example.com', ...TUS };
    const small = await fetch(`${s.url}/v2/uploads`, { method: 'POST', headers: { ...client, 'Upload-Length': '1025' } });
    expect(small.status).toBe(413);
    const ok = await fetch(`${s.url}/v2/uploads`, { method: 'POST', headers: { ...client, 'Upload-Length': '1024' } });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('tus-max-size')).toBe('1024');
    // A browser page can read the protocol's answers.
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/Location.*Upload-Offset.*Upload-Expires/);
  });

  it('PATCH rules: content type 415, Upload-Offset required and matching (409), bytes past Upload-Length 413, offset unchanged', async () => {
    const location = (await create({ 'Upload-Length': '8' })).headers.get('location')!;
    const wrongType = await fetch(`${s.url}${location}`, {
      method: 'PATCH',
      headers: { ...key, ...TUS, 'Content-Type': 'application/octet-stream', 'Upload-Offset': '0' },
      body: 'abcd',
    });
    expect(wrongType.status).toBe(415);
    const noOffset = await fetch(`${s.url}${location}`, { method: 'PATCH', headers: { ...key, ...TUS, ...OCTETS }, body: 'abcd' });
    expect(noOffset.status).toBe(400);
    expect((await patch(location, 3, bytes(4))).status).toBe(409);
    const tooMuch = await patch(location, 0, bytes(9));
    expect(tooMuch.status).toBe(413);
    expect(await errorCode(tooMuch)).toBe('FILE_TOO_LARGE');
    expect((await head(location)).headers.get('upload-offset')).toBe('0');
    const ok = await patch(location, 0, bytes(4));
    expect(ok.status).toBe(204);
    expect(ok.headers.get('upload-offset')).toBe('4');
    expect(ok.headers.get('upload-expires')).not.toBeNull();
    expect(ok.headers.get('tus-resumable')).toBe('1.0.0');
    const stale = await patch(location, 0, bytes(4));
    expect(stale.status).toBe(409);
    expect(await errorCode(stale)).toBe('UPLOAD_OFFSET_MISMATCH');
  });

  it('Upload-Checksum: sha1, sha224 and sha256 accepted when right; wrong is 460 and discarded; another algorithm is 400', async () => {
    const data = randomBytes(3000);
    const location = (await create({ 'Upload-Length': String(data.length) })).headers.get('location')!;
    const part = (i: number): Buffer => data.subarray(i * 1000, (i + 1) * 1000);
    const sum = (alg: string, b: Buffer): string => `${alg} ${createHash(alg).update(b).digest('base64')}`;
    const wrong = await patch(location, 0, new Uint8Array(part(0)), { 'Upload-Checksum': sum('sha224', part(1)) });
    expect(wrong.status).toBe(460);
    expect(await errorCode(wrong)).toBe('CHECKSUM_MISMATCH');
    expect((await head(location)).headers.get('upload-offset')).toBe('0');
    expect(segmentFiles(s).filter((f) => f.includes(location.split('/').pop()!))).toEqual([]);
    const md5 = await patch(location, 0, new Uint8Array(part(0)), { 'Upload-Checksum': sum('md5', part(0)) });
    expect(md5.status).toBe(400);
    for (const [i, alg] of ['sha1', 'sha224', 'sha256'].entries()) {
      const res = await patch(location, i * 1000, new Uint8Array(part(i)), { 'Upload-Checksum': sum(alg, part(i)) });
      expect(res.status, alg).toBe(204);
    }
    const jobUrl = (await head(location)).headers.get('upload-job-url')!;
    const job = await waitFor(async () => {
      const { body } = await getJson(`${s.url}${jobUrl}`, key);
      return body.status === 'completed' ? body : undefined;
    });
    expect(job.hash).toBe(sha224Hex(data));
  });

  it('creation-with-upload stores the body at once; creation-defer-length takes Upload-Length with a later PATCH', async () => {
    const data = randomBytes(5000);
    const withBody = await create({ 'Upload-Length': String(data.length), ...OCTETS }, new Uint8Array(data.subarray(0, 2000)));
    expect(withBody.status).toBe(201);
    expect(withBody.headers.get('upload-offset')).toBe('2000');

    const deferred = await create({ 'Upload-Defer-Length': '1' });
    const location = deferred.headers.get('location')!;
    const h = await head(location);
    expect(h.headers.get('upload-defer-length')).toBe('1');
    expect(h.headers.get('upload-length')).toBeNull();
    expect((await patch(location, 0, new Uint8Array(data.subarray(0, 3000)))).status).toBe(204);
    const last = await patch(location, 3000, new Uint8Array(data.subarray(3000)), { 'Upload-Length': String(data.length) });
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(data.length));
    const jobUrl = last.headers.get('upload-job-url')!;
    const job = await waitFor(async () => {
      const { body } = await getJson(`${s.url}${jobUrl}`, key);
      return body.status === 'completed' ? body : undefined;
    });
    expect(job.hash).toBe(sha224Hex(data));
  });

  it('termination: DELETE answers 204, and the upload is then 404', async () => {
    const location = (await create({ 'Upload-Length': '100' })).headers.get('location')!;
    expect((await patch(location, 0, bytes(50))).status).toBe(204);
    const id = location.split('/').pop()!;
    expect((await head(location)).headers.get('upload-offset')).toBe('50');
    // Embedded mode keeps a PATCH's hash, not its bytes: the record dies with the process as the hash does.
    expect(segmentFiles(s)).toEqual([]);
    const del = await fetch(`${s.url}${location}`, { method: 'DELETE', headers: { ...key, ...TUS } });
    expect(del.status).toBe(204);
    expect(del.headers.get('tus-resumable')).toBe('1.0.0');
    const dir = path.join(s.config.dataDir, 'blobs', 'resumable', s.accountId, id);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    expect((await head(location)).status).toBe(404);
    expect((await patch(location, 50, bytes(50))).status).toBe(404);
  });

  it("another account's upload is 404, as is an id of the wrong shape", async () => {
    const location = (await create({ 'Upload-Length': '10' })).headers.get('location')!;
    const other = await s.newKey({ plan: 'pro' });
    const res = await fetch(`${s.url}${location}`, { method: 'HEAD', headers: { 'X-API-Key': other.secret, ...TUS } });
    expect(res.status).toBe(404);
    expect((await head('/v2/uploads/..%2F..%2Fetc')).status).toBe(404);
    expect((await fetch(`${s.url}/v2/uploads/abc`, { method: 'HEAD', headers: TUS })).status).toBe(401);
  });

  it('verify on ingest: metadata sha224 matching → the job says verified; not matching → the job fails HASH_MISMATCH naming both', async () => {
    const data = randomBytes(4096);
    const run = async (expected: string): Promise<any> => {
      const created = await create(
        { 'Upload-Length': String(data.length), 'Upload-Metadata': `sha224 ${b64(expected)}`, ...OCTETS },
        new Uint8Array(data),
      );
      expect(created.status).toBe(201);
      const jobUrl = created.headers.get('upload-job-url')!;
      return waitFor(async () => {
        const { body } = await getJson(`${s.url}${jobUrl}`, key);
        return body.status === 'completed' || body.status === 'failed' ? body : undefined;
      });
    };
    expect(await run(sha224Hex(data).toUpperCase())).toMatchObject({ status: 'completed', hash: sha224Hex(data), verified: true });
    const other = sha224Hex(Buffer.from('other'));
    const failed = await run(other);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'HASH_MISMATCH' } });
    expect(failed.error.details).toBe(`expected ${other}, computed ${sha224Hex(data)}`);
  });

  it('a PATCH while another writes the same upload is 423 UPLOAD_LOCKED; the one writing completes', async () => {
    const location = (await create({ 'Upload-Length': String(2 * 1024 * 1024) })).headers.get('location')!;
    // Two PATCHes at offset 0, each with half its body sent and held open: whichever took the lock
    // reads its body and cannot answer before it ends, so the first answer is the other's refusal.
    const open = (name: string) => {
      const req = http.request(`${s.url}${location}`, {
        method: 'PATCH',
        headers: { ...key, ...TUS, ...OCTETS, 'Upload-Offset': '0', 'Content-Length': String(1024 * 1024) },
      });
      const answered = new Promise<{ name: string; status: number; body: string }>((resolve, reject) => {
        req.on('response', (r) => {
          let body = '';
          r.setEncoding('utf8');
          r.on('data', (part: string) => (body += part));
          r.on('end', () => resolve({ name, status: r.statusCode!, body }));
        });
        req.on('error', reject);
      });
      req.write(randomBytes(512 * 1024));
      return { req, answered };
    };
    const patches = { a: open('a'), b: open('b') };
    const refused = await Promise.race([patches.a.answered, patches.b.answered]);
    expect(refused.status).toBe(423);
    expect((JSON.parse(refused.body) as { error: { code: string } }).error.code).toBe('UPLOAD_LOCKED');
    const writer = refused.name === 'a' ? patches.b : patches.a;
    (refused.name === 'a' ? patches.a : patches.b).req.destroy();
    writer.req.end(randomBytes(512 * 1024));
    expect((await writer.answered).status).toBe(204);
    expect((await head(location)).headers.get('upload-offset')).toBe(String(1024 * 1024));
  });
});

describe('expiration, embedded', () => {
  let s: TestServer;
  let key: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer({ env: { UPLOAD_EXPIRY_SECONDS: '1', UPLOAD_EXPIRY_SWEEP_INTERVAL_SECONDS: '1' } });
    key = { 'X-API-Key': s.keys.production, ...TUS };
  });
  afterAll(() => s.close());

  it('an expired upload answers 410 to HEAD and PATCH, and no byte of it was ever stored', async () => {
    const untouched = await fetch(`${s.url}/v2/uploads`, {
      method: 'POST',
      headers: { ...key, 'Upload-Length': '100', ...OCTETS },
      body: new Uint8Array(randomBytes(40)),
    });
    expect(untouched.status).toBe(201);
    expect(untouched.headers.get('upload-offset')).toBe('40');
    expect(segmentFiles(s)).toEqual([]);
    // UPLOAD_EXPIRY_SECONDS is 1: HEAD answers 200 until then.
    const res = await waitFor(
      async () => {
        const answer = await fetch(`${s.url}${untouched.headers.get('location')!}`, { method: 'HEAD', headers: key });
        return answer.status === 200 ? undefined : answer;
      },
      { what: 'the upload to expire' },
    );
    expect(res.status).toBe(410);
    const patched = await fetch(`${s.url}${untouched.headers.get('location')!}`, {
      method: 'PATCH',
      headers: { ...key, ...OCTETS, 'Upload-Offset': '40' },
      body: 'x',
    });
    expect(patched.status).toBe(410);
    expect(await errorCode(patched)).toBe('UPLOAD_EXPIRED');
  });
});
