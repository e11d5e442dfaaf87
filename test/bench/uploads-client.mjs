// The /v2/uploads load generator of `npm run bench:uploads`: one tus upload of <bytes> generated
// bytes (the blocks stream-client.mjs sends) in <patches> PATCHes of equal size over one keep-alive
// connection, hashed here as they are sent. The clock runs from the creating POST to the last
// PATCH's answer; `last_byte_to_answer_ms` is from the last PATCH's body handed to the kernel to
// its answer. Then the job named in Upload-Job-Url is read until it carries the digest.
// Usage: node uploads-client.mjs <origin> <bytes> <patches> <api key>; prints one JSON line.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';

const [origin, sizeArg, patchesArg, apiKey] = process.argv.slice(2);
const size = Number(sizeArg);
const patches = Number(patchesArg);
const BLOCK = 1024 * 1024;
const block = Buffer.alloc(BLOCK, 0x5a);
const digest = createHash('sha224');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const tus = { 'tus-resumable': '1.0.0', 'x-api-key': apiKey };

/** One request; resolves with its answer, the body read, and when the request's last byte left. */
async function request(method, path, headers, body) {
  const req = http.request(`${origin}${path}`, { method, headers: { ...tus, ...headers }, agent });
  const answered = once(req, 'response');
  let finishedAt = 0;
  req.once('finish', () => (finishedAt = performance.now()));
  if (body) await body(req);
  req.end();
  const [res] = await answered;
  const answeredAt = performance.now();
  res.setEncoding('utf8');
  let text = '';
  for await (const part of res) text += part;
  return { status: res.statusCode, headers: res.headers, text, lastByteToAnswerMs: answeredAt - finishedAt };
}

/** Bytes [from, to) of the upload, in blocks varied by position as stream-client.mjs's. */
async function send(req, from, to) {
  for (let at = from; at < to;) {
    const index = Math.floor(at / BLOCK);
    const end = Math.min(to, (index + 1) * BLOCK);
    // A fresh buffer per block, as a sender reading a file has.
    const whole = Buffer.from(block);
    whole.writeUInt32BE(index, 0);
    const chunk = whole.subarray(at - index * BLOCK, end - index * BLOCK);
    digest.update(chunk);
    if (!req.write(chunk)) await once(req, 'drain');
    at = end;
  }
}

const started = performance.now();
const created = await request('POST', '/v2/uploads', { 'upload-length': String(size), 'content-length': '0' });
if (created.status !== 201) throw new Error(`POST /v2/uploads answered ${created.status} ${created.text}`);
const location = created.headers.location;
const piece = Math.ceil(size / patches);
const patchMs = [];
let last;
for (let offset = 0; offset < size; offset += piece) {
  const end = Math.min(size, offset + piece);
  const t = performance.now();
  last = await request(
    'PATCH',
    location,
    { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(end - offset) },
    (req) => send(req, offset, end),
  );
  patchMs.push(performance.now() - t);
  if (last.status !== 204 || last.headers['upload-offset'] !== String(end)) {
    throw new Error(`PATCH at ${offset} answered ${last.status} offset ${last.headers['upload-offset']}: ${last.text}`);
  }
}
const seconds = (performance.now() - started) / 1000;
const jobUrl = last.headers['upload-job-url'];
if (typeof jobUrl !== 'string') throw new Error('the last PATCH named no job');
// The job carries the digest from the last byte on; it is polled without delay between reads.
const jobStarted = performance.now();
let job;
for (;;) {
  job = JSON.parse((await request('GET', jobUrl, {})).text);
  if (job.status === 'completed' || job.status === 'failed') break;
  if (performance.now() - jobStarted > 30_000) throw new Error(`job ${jobUrl} still ${job.status}`);
}
const jobMs = performance.now() - jobStarted;
agent.destroy();
process.stdout.write(
  `${JSON.stringify({
    seconds,
    bytes: size,
    patches: patchMs.length,
    patch_ms: patchMs.map((ms) => Math.round(ms)),
    last_byte_to_answer_ms: last.lastByteToAnswerMs,
    job_ms: jobMs,
    sent_digest: digest.digest('hex'),
    job: { status: job.status, hash: job.hash, size: job.size },
  })}\n`,
);
