/**
 * Bulk jobs (docs/api.md "Bulk jobs"): take a job's input into chunks in the blob store, queue
 * the chunks, report progress, cancel. A job's slot is taken before its input is read (the
 * per-account bound of docs/decisions.md "Bulk jobs"), so a refused job costs nothing to read.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Principal } from '../../shared/auth/principal.js';
import { BULK_PLAN_LIMITS, URL_CHUNK_ITEMS, type BulkRecord, type BulkSource, type ChunkTask } from '../../shared/bulk/model.js';
import { ServiceError } from '../../shared/errors.js';
import { checkUrl, parseUrl } from '../../shared/net/url-policy.js';
import { resolveTimeoutMs } from '../../shared/net/url-timeout.js';
import type { ApiDeps, BulkDeps } from '../deps.js';
import { ChunkWriter } from '../uploads/bulk-chunk-writer.js';
import { BulkItemIntake } from '../uploads/bulk-item-intake.js';
import { ChunkLineBatch } from '../uploads/chunk-line-batch.js';
import { NdjsonSplitter } from '../uploads/ndjson-splitter.js';
import type { z } from '../schemas/common.js';
import type { BulkS3Request, BulkUrlsRequest } from '../schemas/bulk.js';

type Deps = Pick<ApiDeps, 'config' | 'maxUploadBytes' | 'logger' | 'blobs'> & { bulk?: BulkDeps | undefined };

/** An NDJSON line longer than this refuses the job (1 MiB: the JSON body limit's order). */
const MAX_LINE_BYTES = 1024 * 1024;

export function bulkOf(deps: Deps): BulkDeps {
  if (deps.bulk === undefined) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'bulk jobs are not enabled on this node' });
  return deps.bulk;
}

/** `fill` writes the job's input through the writer; `task` makes chunk `index`'s task. */
async function createJob(
  deps: Deps,
  principal: Principal,
  source: BulkSource,
  chunkItems: number,
  fill: (writer: ChunkWriter, id: string) => Promise<void>,
  task: (base: ChunkTask) => ChunkTask = (base) => base,
): Promise<BulkRecord> {
  const bulk = bulkOf(deps);
  const limits = BULK_PLAN_LIMITS[principal.plan];
  const id = randomUUID();
  const opened = await bulk.store.open({ id, accountId: principal.accountId, source, createdAt: Date.now() }, limits.maxActive);
  if (opened === undefined)
    throw new ServiceError('RATE_LIMIT_EXCEEDED', {
      details: `the plan allows ${limits.maxActive} bulk job${limits.maxActive === 1 ? '' : 's'} at once; wait for one to finish`,
      extra: { retry_after: 5 },
    });
  const writer = new ChunkWriter(deps.blobs, id, chunkItems);
  let chunks: number;
  try {
    await fill(writer, id);
    chunks = await writer.finish();
    if (writer.total === 0) throw new ServiceError('INVALID_INPUT', { details: 'the job holds no items' });
    await bulk.store.start(id, writer.total, chunks, Date.now());
  } catch (err) {
    await writer.abort();
    await bulk.store.discard(id).catch(() => undefined);
    throw err;
  }
  const total = writer.total;
  const tasks = Array.from({ length: chunks }, (_, index) =>
    task({ bulkId: id, accountId: principal.accountId, index, source, items: Math.min(chunkItems, total - index * chunkItems) }),
  );
  try {
    await bulk.chunks.enqueue(tasks);
  } catch (err) {
    // Nothing will run: the job ends now rather than wait forever (its chunks already queued skip themselves).
    await bulk.store.cancel(id, Date.now()).catch(() => undefined);
    throw err;
  }
  return (await bulk.store.get(id)) ?? opened;
}

/**
 * An application/x-ndjson body of items, streamed into chunks as it arrives: each piece of the
 * body is cut into lines and turned into chunk lines at once, then written (docs/decisions.md "Bulk jobs").
 */
export function createItemsJob(deps: Deps, principal: Principal, body: Readable): Promise<BulkRecord> {
  const limits = BULK_PLAN_LIMITS[principal.plan];
  return createJob(deps, principal, 'items', deps.config.BULK_CHUNK_ITEMS, async (writer) => {
    const batch = new ChunkLineBatch();
    const intake = new BulkItemIntake(limits, batch);
    // The body carries the items' JSON around their data: allow it twice the data limit.
    const splitter = new NdjsonSplitter(
      { maxLineBytes: MAX_LINE_BYTES, maxBodyBytes: 2 * limits.maxBytes + MAX_LINE_BYTES },
      (bytes, start, end) => intake.line(bytes, start, end),
    );
    for await (const piece of body as AsyncIterable<Buffer>) {
      splitter.push(piece);
      const { bytes, ends } = batch.take();
      await writer.addLines(bytes, ends);
    }
    splitter.end();
    const { bytes, ends } = batch.take();
    await writer.addLines(bytes, ends);
  });
}

/** A list of URLs: each checked by the URL policy now (the worker checks again, and every hop), fetched by workers. */
export function createUrlsJob(deps: Deps, principal: Principal, body: z.output<typeof BulkUrlsRequest>): Promise<BulkRecord> {
  const limits = BULK_PLAN_LIMITS[principal.plan];
  if (body.urls.length > limits.maxItems)
    throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `the plan allows ${limits.maxItems} items in a bulk job` });
  body.urls.forEach((url, index) => checkUrl(parseUrl(url, `urls[${index}]`), { allowLoopback: deps.config.URL_FETCH_ALLOW_LOOPBACK }));
  const url = { timeoutMs: resolveTimeoutMs(body.timeout), maxBytes: deps.maxUploadBytes(principal, 'v1-url') };
  return createJob(
    deps,
    principal,
    'urls',
    URL_CHUNK_ITEMS,
    async (writer) => {
      for (const id of body.urls) await writer.add(JSON.stringify({ id }));
    },
    (base) => ({ ...base, url }),
  );
}

/** A bucket: listed now (key by key into chunks), each object read and hashed by a worker with the sealed credentials. */
export async function createS3Job(deps: Deps, principal: Principal, body: z.output<typeof BulkS3Request>): Promise<BulkRecord> {
  const limits = BULK_PLAN_LIMITS[principal.plan];
  const secrets = bulkOf(deps).secrets;
  if (secrets === undefined)
    throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'S3 sources need SECRETS_KEY on every API node and worker' });
  if (body.endpoint !== undefined) checkUrl(parseUrl(body.endpoint, 'endpoint'), { allowLoopback: deps.config.URL_FETCH_ALLOW_LOOPBACK });
  // The AWS SDK loads with the first S3 job, not at start.
  const [{ sourceClient, listSource }, { sealCredentials }] = await Promise.all([
    import('../../shared/bulk/s3-source.js'),
    import('../../shared/bulk/seal.js'),
  ]);
  const credentials = {
    accessKeyId: body.credentials.access_key_id,
    secretAccessKey: body.credentials.secret_access_key,
    ...(body.credentials.session_token === undefined ? {} : { sessionToken: body.credentials.session_token }),
  };
  const where = {
    bucket: body.bucket,
    region: body.region,
    forcePathStyle: body.force_path_style,
    ...(body.endpoint === undefined ? {} : { endpoint: body.endpoint }),
  };
  let sealed = '';
  return createJob(
    deps,
    principal,
    's3',
    deps.config.BULK_CHUNK_ITEMS,
    async (writer, id) => {
      sealed = sealCredentials(secrets, credentials, id);
      const client = sourceClient({ ...where, credentials }, deps.config.URL_FETCH_ALLOW_LOOPBACK);
      let bytes = 0;
      try {
        for await (const page of listSource(client, body.bucket, body.prefix)) {
          for (const object of page) {
            bytes += object.size;
            if (writer.total >= limits.maxItems)
              throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `the plan allows ${limits.maxItems} items in a bulk job` });
            if (bytes > limits.maxBytes)
              throw new ServiceError('PAYLOAD_TOO_LARGE', { details: `the plan allows ${limits.maxBytes} bytes in a bulk job` });
            await writer.add(JSON.stringify({ id: object.key }));
          }
        }
      } finally {
        client.destroy();
      }
    },
    (base) => ({ ...base, s3: { ...where, sealed } }),
  );
}

/** A job of the caller's account; another account's is reported as absent, so ids cannot be probed. */
export async function bulkRecordOf(deps: Deps, principal: Principal, id: string): Promise<BulkRecord> {
  const record = await bulkOf(deps).store.get(id);
  if (record === undefined || record.accountId !== principal.accountId)
    throw new ServiceError('NOT_FOUND', { details: 'no such bulk job' });
  return record;
}

export async function cancelBulk(deps: Deps, principal: Principal, id: string): Promise<BulkRecord> {
  await bulkRecordOf(deps, principal, id);
  const record = await bulkOf(deps).store.cancel(id, Date.now());
  if (record === undefined) throw new ServiceError('NOT_FOUND', { details: 'no such bulk job' });
  return record;
}
