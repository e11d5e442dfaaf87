/**
 * The `log` option on jobs (docs/proving.md "Logging a job's digest"), embedded on SQLite and on a
 * cluster of real processes (2 API nodes, a worker, BullMQ, PostgreSQL): /v2/file (multipart field),
 * /v2/stream (query parameter) and /v1/hash/url (a loopback origin, allowed by
 * URL_FETCH_ALLOW_LOOPBACK) answer a receipt that the SDK's offline verifier accepts for the bytes'
 * SHA-224; an async job is logged when its completed result is read, once, however often and from
 * whichever node it is read (the job id is the leaf's idempotency key). Without `log`, no receipt
 * and no leaf.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../api/clients/typescript/src/receipt.js';
import { decodeLeaf } from '../../shared/proof/leaf.js';
import { selfSignedTsaCert } from '../../shared/proof/tsa-cert.js';
import { fileForm } from '../helpers/multipart.js';
import { listenOnFreePort } from '../helpers/ports.js';
import { startTarget, type Target, type TargetName } from '../helpers/targets.js';
import { waitFor } from '../helpers/wait.js';

interface ReceiptJson {
  index: number;
  leaf: { digest: string; length: number; source: string };
  leaf_base64: string;
  tlog_proof: string;
}

const sha224 = (b: Uint8Array): string => createHash('sha224').update(b).digest('hex');

const urlBody = randomBytes(50_000);
let origin: http.Server;
let base: string;
beforeAll(async () => {
  origin = http.createServer((_req, res) => res.end(urlBody));
  base = `http://127.0.0.1:${await listenOnFreePort(origin)}`;
});
afterAll(async () => {
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
});

/** Distributed nodes make no keys of their own: every node (and the embedded one) is given these. */
function proofEnv(): Record<string, string> {
  const logSigner = generateKeyPairSync('ed25519').privateKey;
  const tsaKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  return {
    LOG_ORIGIN: 'jobs.test/log',
    LOG_CHECKPOINT_INTERVAL_MS: '0',
    LOG_SIGNING_KEY: logSigner.export({ type: 'pkcs8', format: 'pem' }).toString(),
    TSA_KEY: tsaKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    TSA_CERT: selfSignedTsaCert(tsaKey, 'jobs.test TSA', new Date()),
    URL_FETCH_ALLOW_LOOPBACK: 'true',
  };
}

describe.each(['sqlite', 'cluster'] as TargetName[])('the log option on file, stream and URL jobs on %s', (target) => {
  let s: Target;
  let h: Record<string, string>;
  let logKey: string;
  beforeAll(async () => {
    s = await startTarget(target, proofEnv(), { apiNodes: 2, workers: 1 });
    h = { 'x-api-key': s.keys.production };
    logKey = ((await (await fetch(`${s.url}/.well-known/sha224d-log`)).json()) as { verifier_key: string }).verifier_key;
  }, 120_000);
  afterAll(() => s?.close());

  /** The receipt verifies offline for these bytes, and names their length and the source. */
  async function expectReceipt(receipt: ReceiptJson | undefined, bytes: Buffer, source: string): Promise<void> {
    expect(receipt, 'a receipt').toBeDefined();
    const v = await verifyReceipt(receipt!, { logKey, digest: sha224(bytes) });
    expect(v).toMatchObject({ index: receipt!.index, digest: sha224(bytes), length: bytes.length, source, origin: 'jobs.test/log' });
  }

  /** Leaves in the whole log whose digest is this one's. */
  async function leavesOf(digest: string): Promise<number[]> {
    const found: number[] = [];
    for (let start = 0; ; start += 5000) {
      const rows = await s.store.transparencyLog.leavesFrom(start, 5000);
      for (const row of rows) if (decodeLeaf(row.leaf).digest === digest) found.push(row.index);
      if (rows.length < 5000) return found;
    }
  }

  it('/v2/file with the form field log=true answers a receipt for the file; without it, none', async () => {
    const bytes = randomBytes(70_000);
    const res = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: h, body: fileForm(bytes, { fields: { log: 'true' } }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { hash: string; receipt?: ReceiptJson };
    expect(body.hash).toBe(sha224(bytes));
    await expectReceipt(body.receipt, bytes, 'file');

    const plain = randomBytes(1000);
    const unlogged = await fetch(`${s.url}/v2/file`, { method: 'POST', headers: h, body: fileForm(plain) });
    expect(unlogged.status).toBe(200);
    expect(await unlogged.json()).not.toHaveProperty('receipt');
    expect(await leavesOf(sha224(plain))).toEqual([]);
  });

  it('/v2/stream?log=true answers a receipt for the body', async () => {
    const bytes = randomBytes(200_000);
    const res = await fetch(`${s.url}/v2/stream?log=true`, {
      method: 'POST',
      headers: { ...h, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { hash: string; receipt?: ReceiptJson };
    expect(body.hash).toBe(sha224(bytes));
    await expectReceipt(body.receipt, bytes, 'stream');
  });

  it('/v1/hash/url with "log": true answers a receipt for the fetched body (a worker fetched it)', async () => {
    const res = await fetch(`${s.url}/v1/hash/url`, {
      method: 'POST',
      // v1 takes the key as a bearer token.
      headers: { authorization: `Bearer ${s.keys.production}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${base}/doc.bin`, log: true }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { hash: string; content_length: number; receipt?: ReceiptJson };
    expect(body).toMatchObject({ hash: sha224(urlBody), content_length: urlBody.length });
    await expectReceipt(body.receipt, urlBody, 'url');
  });

  it('a "log" that is not a boolean is 400', async () => {
    const res = await fetch(`${s.url}/v2/stream?log=maybe`, {
      method: 'POST',
      headers: { ...h, 'content-type': 'application/octet-stream' },
      body: 'x',
    });
    expect(res.status).toBe(400);
  });

  it.each(['file', 'stream'] as const)(
    'an async %s job with log is logged when its result is read: one leaf, read twice and from every node at once',
    async (kind) => {
      const bytes = randomBytes(30_000);
      const res =
        kind === 'file'
          ? await fetch(`${s.url}/v2/file?async=true`, { method: 'POST', headers: h, body: fileForm(bytes, { fields: { log: 'true' } }) })
          : await fetch(`${s.url}/v2/stream?async=true&log=true`, {
              method: 'POST',
              headers: { ...h, 'content-type': 'application/octet-stream' },
              body: bytes,
            });
      expect(res.status).toBe(202);
      const { status_url: statusUrl } = (await res.json()) as { status_url: string };
      const read = async (url: string): Promise<{ status: string; hash?: string; receipt?: ReceiptJson }> => {
        const r = await fetch(`${url}${statusUrl}`, { headers: h });
        expect(r.status).toBe(200);
        return (await r.json()) as { status: string; hash?: string; receipt?: ReceiptJson };
      };
      // Pending reads carry no receipt; the first completed read logs the digest.
      const first = await waitFor(
        async () => {
          const body = await read(s.url);
          if (body.status !== 'completed') expect(body.receipt).toBeUndefined();
          return body.status === 'completed' && body;
        },
        { what: 'the job to complete' },
      );
      expect(first.hash).toBe(sha224(bytes));
      await expectReceipt(first.receipt, bytes, kind);

      // Read again, and from every node at the same time: the same leaf each time.
      const again = await Promise.all([...s.urls, ...s.urls].map((url) => read(url)));
      for (const body of again) {
        expect(body.receipt?.index).toBe(first.receipt!.index);
        expect(body.receipt?.leaf_base64).toBe(first.receipt!.leaf_base64);
        await expectReceipt(body.receipt, bytes, kind);
      }
      expect(await leavesOf(sha224(bytes))).toEqual([first.receipt!.index]);
    },
  );

  it('an async job without log answers no receipt and adds no leaf', async () => {
    const bytes = randomBytes(5000);
    const res = await fetch(`${s.url}/v2/stream?async=true`, {
      method: 'POST',
      headers: { ...h, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    const { status_url: statusUrl } = (await res.json()) as { status_url: string };
    const done = await waitFor(
      async () => {
        const body = (await (await fetch(`${s.url}${statusUrl}`, { headers: h })).json()) as Record<string, unknown>;
        return body.status === 'completed' && body;
      },
      { what: 'the job to complete' },
    );
    expect(done).not.toHaveProperty('receipt');
    expect(await leavesOf(sha224(bytes))).toEqual([]);
  });
});
