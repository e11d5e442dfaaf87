/**
 * A third party's client of sha224d, written with openapi-fetch against types openapi-typescript
 * generated. In the repository it is checked against the SDK's generated types; the test
 * (./typed-client.test.ts) copies it beside types generated from the served /openapi.json (the
 * import below becomes './schema.js'), type-checks it under strict and runs it against a live
 * server: it calls every JSON operation and prints what it got as one JSON line.
 * Arguments: base URL, API key.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../../api/clients/typescript/src/generated/openapi.js';

const [baseUrl = '', key = ''] = process.argv.slice(2);
const v2 = createClient<paths>({ baseUrl, headers: { 'X-API-Key': key } });
const v1 = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });
const open = createClient<paths>({ baseUrl });
const called: Record<string, unknown> = {};

function must<T>(operationId: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) throw new Error(`${operationId}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

// ---- v2 ----
const hash: components['schemas']['HashResponse'] = must('hashV2', await v2.POST('/v2/hash', { body: { data: 'abc' } }));
called.hashV2 = hash.hash;
const verify = must('verifyV2', await v2.POST('/v2/verify', { body: { data: 'abc', hash: hash.hash } }));
called.verifyV2 = verify.valid;
const hmac = must('hmacV2', await v2.POST('/v2/hmac', { body: { data: 'abc', key: 'key', output: 'base64' } }));
called.hmacV2 = hmac.hmac;
const batch = must('batchV2', await v2.POST('/v2/batch', { body: { items: [{ id: 'a', data: 'abc' }] } }));
// 200 and 202 share a media type, so `data` is either: the synchronous answer has `results`.
called.batchV2 = 'results' in batch ? batch.results.map((r) => r.hash) : batch;

const submitted = await v2.POST('/v2/batch', {
  params: { query: { async: true }, header: { 'Idempotency-Key': `typed-${Date.now()}` } },
  body: { items: [{ id: 'b', data: 'abc' }] },
});
if (submitted.response.status !== 202 || submitted.data === undefined) throw new Error('batchV2 async: no 202');
const jobId = 'job_id' in submitted.data ? submitted.data.job_id : '';
// Poll with backoff until the job ends, for at most 30 s (this program stands alone: no test helpers).
let job: components['schemas']['JobStatus'] | undefined;
const deadline = Date.now() + 30_000;
for (let wait = 10; job?.status !== 'completed' && job?.status !== 'failed'; wait = Math.min(wait * 2, 200)) {
  if (Date.now() > deadline) throw new Error(`getJobV2: job ${jobId} still ${job?.status} after 30 s`);
  job = must('getJobV2', await v2.GET('/v2/jobs/{id}', { params: { path: { id: jobId } } }));
  if (job.status === 'queued' || job.status === 'active') await new Promise((resolve) => setTimeout(resolve, wait));
}
called.getJobV2 = job.status === 'completed' && 'results' in job ? job.results.map((r) => r.hash) : job;

const missing = await v2.GET('/v2/jobs/{id}', { params: { path: { id: 'no-such-job' } } });
const notFound: components['schemas']['ErrorResponse'] | undefined = missing.error;
called.getJobV2NotFound = notFound?.error.code;

// ---- proof of existence ----
const logged = must('logDigestV2', await v2.POST('/v2/log', { body: { digest: hash.hash } }));
called.logDigestV2 = logged.receipt.leaf.digest;
called.getReceiptV2 = must(
  'getReceiptV2',
  await v2.GET('/v2/receipts/{id}', { params: { path: { id: logged.receipt.id } } }),
).receipt.index;
called.logConsistencyV2 = must('logConsistencyV2', await v2.GET('/v2/log/consistency', { params: { query: { from: 1 } } })).to;

// Bulk jobs: a one-URL job, its status, then a cancel (of a job running or already finished).
const bulk = await v2.POST('/v2/bulk', { body: { source: 'urls', urls: [`${baseUrl}/healthz`] } });
if (bulk.response.status !== 202 || bulk.data === undefined) throw new Error(`createBulkV2: ${bulk.response.status}`);
const bulkPath = { params: { path: { id: bulk.data.id } } };
called.getBulkV2 = must('getBulkV2', await v2.GET('/v2/bulk/{id}', bulkPath)).items.total;
called.cancelBulkV2 = must('cancelBulkV2', await v2.DELETE('/v2/bulk/{id}', bulkPath)).id === bulk.data.id;

// ---- v1 Set A ----
called.hashV1 = must('hashV1', await v1.POST('/v1/hash', { body: { data: 'abc', outputFormat: 'hex' } })).hash;
const verified = must('verifyV1', await v1.POST('/v1/verify', { body: { data: 'abc', hash: hash.hash } }));
called.verifyV1 = 'verified' in verified ? verified.verified : verified.valid;
called.hmacV1 = must('hmacV1', await v1.POST('/v1/hmac', { body: { data: 'abc', key: 'key' } })).hmac;
called.getUsageV1 = typeof must('getUsageV1', await v1.GET('/v1/usage')).account;

// ---- v1 Set B ----
called.hashTextV1 = must('hashTextV1', await v1.POST('/v1/hash/text', { body: { text: 'abc' } })).hash;
called.verifyTextV1 = must('verifyTextV1', await v1.POST('/v1/verify/text', { body: { text: 'abc', hash: hash.hash } })).valid;
called.batchHashV1 = must('batchHashV1', await v1.POST('/v1/batch/hash', { body: { items: [{ text: 'abc' }] } })).results.map(
  (r) => r.hash,
);
called.batchVerifyV1 = must(
  'batchVerifyV1',
  await v1.POST('/v1/batch/verify', { body: { items: [{ text: 'abc', hash: hash.hash }] } }),
).results.map((r) => r.valid);
called.compareV1 = must('compareV1', await v1.POST('/v1/compare', { body: { hash1: hash.hash, hash2: hash.hash.toUpperCase() } })).match;
called.getStatusV1 = must('getStatusV1', await v1.GET('/v1/status')).status;
const urlHash = await v1.POST('/v1/hash/url', { body: { url: `${baseUrl}/healthz` } });
called.hashUrlV1 = urlHash.data?.hash;

// ---- public ----
called.getHealth = must('getHealth', await open.GET('/healthz')).status;
called.getReadiness = must('getReadiness', await open.GET('/readyz')).status;
called.getOpenApiDocument = typeof must('getOpenApiDocument', await open.GET('/openapi.json'));
called.getAsyncApiDocument = typeof must('getAsyncApiDocument', await open.GET('/asyncapi.json'));
called.getLogKey = must('getLogKey', await open.GET('/.well-known/sha224d-log')).algorithm;
called.getSdkManifest = Object.keys(must('getSdkManifest', await open.GET('/sdk/manifest.json')).files);
called.getAuthorizationServerMetadata = must(
  'getAuthorizationServerMetadata',
  await open.GET('/.well-known/oauth-authorization-server'),
).issuer;
called.getOpenIdConfiguration = must('getOpenIdConfiguration', await open.GET('/.well-known/openid-configuration')).token_endpoint;

console.log(JSON.stringify(called));
