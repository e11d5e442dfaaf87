/** Shared by the TypeScript client's tests: paths, a spawned embedded server, the node:crypto HMAC reference (digests: test/helpers/digests.ts). */
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ROOT, spawnEntry, type SpawnedProcess } from '../../helpers/spawn.js';
import { listenOnFreePort } from '../../helpers/ports.js';

export const CLIENT_DIR = path.join(ROOT, 'api', 'clients', 'typescript');
export const CLI = path.join(CLIENT_DIR, 'bin', 'sha224d.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One run of the `sha224d` CLI with exactly `env` (nothing inherited), `input` on its stdin. */
export function runCli(args: string[], options: { env: Record<string, string>; cwd?: string; input?: string | Buffer }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: options.env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export function hmacSha224(key: string | Uint8Array, data: string | Uint8Array, output: 'hex' | 'base64' = 'hex'): string {
  return createHmac('sha224', key).update(data).digest(output);
}

export interface Target {
  url: string;
  key: string;
}

export interface EmbeddedServer extends Target {
  proc: SpawnedProcess;
  dataDir: string;
  stop(): Promise<void>;
}

/** `npm start`'s bundle as a process on a free port, with a fresh data folder; resolves with its key. */
export async function startEmbedded(env: Record<string, string> = {}): Promise<EmbeddedServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-tssdk-'));
  const proc = spawnEntry('embedded', { DATA_DIR: dataDir, PORT: '0', URL_FETCH_ALLOW_LOOPBACK: 'true', ...env });
  const url = (await proc.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  const key = (await proc.waitFor(/API key: (s224_\w+)/))[1]!;
  return {
    url,
    key,
    proc,
    dataDir,
    async stop() {
      await proc.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A loopback HTTP server answering every GET with `body` (for URL hashing). */
export async function startContentServer(body: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => res.end(body));
  const port = await listenOnFreePort(server);
  return { url: `http://127.0.0.1:${port}/content.bin`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A temporary file of `size` random bytes, removed by the returned function. */
export function tempFile(size: number, name = 'data.bin'): { file: string; bytes: Buffer; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-tssdk-file-'));
  const file = path.join(dir, name);
  const bytes = randomBytes(size);
  fs.writeFileSync(file, bytes);
  return { file, bytes, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
