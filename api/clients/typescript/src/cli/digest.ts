/** The SHA-224 of a file or of stdin: through the service (streamed upload) or, with --local, here. */
import fs from 'node:fs';
import path from 'node:path';
import type { FileResponse, StreamResponse } from '../types.js';
import type { CliContext } from './context.js';
import { localHasher } from './local-digest.js';
import { progressBar } from './progress.js';

export const STDIN = '-';

export interface FileDigest {
  /** Lowercase hex. */
  hash: string;
  /** The service's answer (undefined with --local). */
  response?: FileResponse | StreamResponse;
}

async function localDigest(input: NodeJS.ReadableStream): Promise<string> {
  const hasher = localHasher();
  for await (const chunk of input) hasher.update(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return hasher.digest();
}

export async function digestFile(context: CliContext, name: string): Promise<FileDigest> {
  const fromStdin = name === STDIN;
  if (!fromStdin) {
    const info = fs.statSync(name); // ENOENT, EACCES: a usage error, reported before any upload
    if (info.isDirectory()) throw Object.assign(new Error(`${name}: Is a directory`), { code: 'EISDIR' });
  }
  if (context.local) {
    return { hash: await localDigest(fromStdin ? context.io.stdin : fs.createReadStream(name)) };
  }
  const client = context.client();
  const size = fromStdin ? undefined : fs.statSync(name).size;
  const bar = progressBar(context.io.stderr, fromStdin ? 'stdin' : path.basename(name), size);
  try {
    const source = fromStdin ? (context.io.stdin as AsyncIterable<Uint8Array>) : name;
    const response = await client.upload(source, { output: 'hex', onProgress: (p) => bar.update(p) });
    return { hash: response.hash, response };
  } finally {
    bar.stop();
  }
}
