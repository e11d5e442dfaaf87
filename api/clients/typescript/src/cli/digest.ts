/** The SHA-224 of a file or of stdin: through the service (streamed upload) or, with --local, here. */
import fs from 'node:fs';
import path from 'node:path';
import type { CompletedJob } from '../jobs.js';
import type { FileResponse, StreamResponse } from '../types.js';
import { FILE_ENDPOINT_MAX_BYTES } from '../upload/upload.js';
import type { CliContext } from './context.js';
import { localHasher } from './local-digest.js';
import { progressBar } from './progress.js';
import { readState, removeState, statePath, writeState } from './resume-state.js';

export const STDIN = '-';

/**
 * Files larger than this go through /v2/uploads (tus) and resume after an interrupted run:
 * the /v2/file limit, so files that fit in one request keep using it (docs/decisions.md).
 */
export const RESUMABLE_MIN_BYTES = FILE_ENDPOINT_MAX_BYTES + 1;

/** SHA224D_RESUMABLE_MIN_BYTES moves the threshold (e.g. lower, on a link that drops often). */
function resumableMinBytes(env: NodeJS.ProcessEnv): number {
  const given = Number(env.SHA224D_RESUMABLE_MIN_BYTES);
  return Number.isInteger(given) && given > 0 ? given : RESUMABLE_MIN_BYTES;
}

export interface DigestOptions {
  /** Expected SHA-224 (hex), verified by the service as the bytes arrive (HASH_MISMATCH otherwise). */
  expect?: string;
}

export interface FileDigest {
  /** Lowercase hex. */
  hash: string;
  /** The service's answer (undefined with --local). */
  response?: FileResponse | StreamResponse | CompletedJob;
}

async function localDigest(input: NodeJS.ReadableStream): Promise<string> {
  const hasher = localHasher();
  for await (const chunk of input) hasher.update(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return hasher.digest();
}

export async function digestFile(context: CliContext, name: string, options: DigestOptions = {}): Promise<FileDigest> {
  const fromStdin = name === STDIN;
  if (!fromStdin) {
    const info = fs.statSync(name); // ENOENT, EACCES: a usage error, reported before any upload
    if (info.isDirectory()) throw Object.assign(new Error(`${name}: Is a directory`), { code: 'EISDIR' });
  }
  if (context.local) {
    return { hash: await localDigest(fromStdin ? context.io.stdin : fs.createReadStream(name)) };
  }
  const client = context.client();
  const info = fromStdin ? undefined : fs.statSync(name);
  const size = info?.isFile() ? info.size : undefined;
  if (info !== undefined && size !== undefined && size >= resumableMinBytes(context.io.env))
    return resumableDigest(context, name, info, options);
  const bar = progressBar(context.io.stderr, fromStdin ? 'stdin' : path.basename(name), size);
  try {
    const source = fromStdin ? (context.io.stdin as AsyncIterable<Uint8Array>) : name;
    const response = await client.upload(source, { output: 'hex', expect: options.expect, onProgress: (p) => bar.update(p) });
    return { hash: response.hash, response };
  } finally {
    bar.stop();
  }
}

/**
 * A large file through /v2/uploads: the upload's URL is kept in a state file as soon as it is
 * known, so a run killed half-way continues from the server's offset when run again.
 */
async function resumableDigest(context: CliContext, name: string, info: fs.Stats, options: DigestOptions): Promise<FileDigest> {
  const client = context.client();
  const state = statePath(context.io.env, {
    file: name,
    size: info.size,
    mtimeMs: info.mtimeMs,
    baseUrl: client.baseUrl,
    expect: options.expect,
  });
  const bar = progressBar(context.io.stderr, path.basename(name), info.size);
  try {
    const uploaded = await client.uploadResumable(name, {
      expect: options.expect,
      uploadUrl: readState(state)?.url,
      onUploadUrl: (url) => writeState(state, { url }),
      onProgress: (p) => bar.update(p),
      // Once the last byte is stored there is nothing left to continue, whatever the job's outcome.
      onUploaded: () => removeState(state),
    });
    const { result } = uploaded;
    // A /v2/uploads job is a `file` job: its result carries `hash` (a batch job's would not).
    if (!('hash' in result)) throw new Error(`job ${uploaded.jobId} finished without a digest`);
    return { hash: result.hash, response: result };
  } finally {
    bar.stop();
  }
}
