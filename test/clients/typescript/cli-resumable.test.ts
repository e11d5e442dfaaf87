/**
 * `sha224d hash -f` of a file over the resumable threshold goes through /v2/uploads (tus) and
 * resumes after the process is killed: a 256 MiB file, the CLI SIGKILLed once the server holds
 * half of it, a rerun sends only the rest and prints sha224sum's line. Between the CLI and the
 * server, a loopback HTTP proxy counts PATCH body bytes per run and, when asked, holds the first
 * PATCH at or past an offset unanswered — so the kill happens at a known offset, with no sleeps.
 * `--expect` verifies on ingest: a match prints the line, a mismatch exits 1 with FAILED.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '../../helpers/ports.js';
import { waitFor } from '../../helpers/wait.js';
import { CLI, startEmbedded, type EmbeddedServer } from './helpers.js';

const MiB = 1024 * 1024;
const SIZE = 256 * MiB;

let server: EmbeddedServer;
let work: string;
let env: Record<string, string>;

/** Forwards everything to the server; counts PATCH body bytes; holds a PATCH at or past `holdFrom`. */
interface Proxy {
  url: string;
  patchedBytes: number;
  holdFrom: number | undefined;
  held: number | undefined;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  const upstream = new URL(target);
  const proxy: Proxy = { url: '', patchedBytes: 0, holdFrom: undefined, held: undefined, close: () => Promise.resolve() };
  const httpServer = http.createServer((req, res) => {
    const offset = Number(req.headers['upload-offset'] ?? NaN);
    if (req.method === 'PATCH' && proxy.holdFrom !== undefined && offset >= proxy.holdFrom) {
      proxy.held = offset; // never answered: the client waits on it until it is killed
      req.resume();
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    res.on('error', () => undefined);
    if (req.method === 'PATCH') req.on('data', (chunk: Buffer) => (proxy.patchedBytes += chunk.length));
    req.pipe(forward);
  });
  const port = await listenOnFreePort(httpServer);
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      httpServer.closeAllConnections();
      httpServer.close(() => resolve());
    });
  return proxy;
}

function cli(
  args: string[],
  extraEnv: Record<string, string> = {},
): { child: ChildProcess; done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: work, env: { ...env, ...extraEnv } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end();
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

const stateFiles = (): string[] => {
  const dir = path.join(work, 'cache', 'sha224d', 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

beforeAll(async () => {
  server = await startEmbedded();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-cli-resume-'));
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    XDG_CONFIG_HOME: path.join(work, 'config'),
    XDG_CACHE_HOME: path.join(work, 'cache'),
    SHA224D_API_KEY: server.key,
  };
  // Written in pieces: 256 MiB never sits in this process's memory at once.
  const fd = fs.openSync(path.join(work, 'big.iso'), 'w');
  for (let written = 0; written < SIZE; written += 16 * MiB) fs.writeSync(fd, randomBytes(16 * MiB));
  fs.closeSync(fd);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('sha224d hash -f over the resumable threshold', () => {
  it('a run SIGKILLed half-way is continued by the next run from the server offset; the digest is sha224sum’s', async () => {
    const line = execFileSync('sha224sum', ['big.iso'], { cwd: work, encoding: 'utf8' });
    const sum = line.split(' ')[0]!;
    const proxy = await startProxy(server.url);
    try {
      proxy.holdFrom = SIZE / 2;
      const first = cli(['hash', '-f', 'big.iso', '--expect', sum], { SHA224D_URL: proxy.url });
      const heldAt = await waitFor(() => proxy.held, { timeoutMs: 120_000, what: 'a PATCH at half the file' });
      // The state file names the upload; the server holds exactly the bytes before the held PATCH.
      expect(stateFiles()).toHaveLength(1);
      const state = JSON.parse(fs.readFileSync(path.join(work, 'cache', 'sha224d', 'uploads', stateFiles()[0]!), 'utf8')) as {
        url: string;
      };
      const uploadUrl = server.url + new URL(state.url).pathname;
      const head = await fetch(uploadUrl, { method: 'HEAD', headers: { 'X-API-Key': server.key, 'Tus-Resumable': '1.0.0' } });
      expect(Number(head.headers.get('upload-offset'))).toBe(heldAt);
      expect(heldAt).toBeGreaterThanOrEqual(SIZE / 2);
      expect(heldAt).toBeLessThan(SIZE);

      first.child.kill('SIGKILL');
      expect(await first.done).toMatchObject({ signal: 'SIGKILL', stdout: '' });
      const sentFirst = proxy.patchedBytes;

      proxy.holdFrom = undefined;
      proxy.patchedBytes = 0;
      const second = await cli(['hash', '-f', 'big.iso', '--expect', sum], { SHA224D_URL: proxy.url }).done;
      expect(second).toMatchObject({ code: 0, stdout: line, stderr: '' });
      // Resumed: the rerun sent only what the server lacked.
      expect(proxy.patchedBytes).toBe(SIZE - heldAt);
      expect(sentFirst).toBe(heldAt);
      expect(stateFiles()).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 600_000);

  it('--expect with a wrong digest: resumable and single-request uploads both exit 1 with FAILED', async () => {
    const small = path.join(work, 'small.bin');
    fs.writeFileSync(small, randomBytes(3 * MiB));
    const wrong = 'ab'.repeat(28);
    for (const threshold of [String(MiB), String(64 * MiB)]) {
      const result = await cli(['hash', '-f', 'small.bin', '--expect', wrong], {
        SHA224D_URL: server.url,
        SHA224D_RESUMABLE_MIN_BYTES: threshold,
      }).done;
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toContain(`small.bin: FAILED: the SHA-224 is not ${wrong} (HASH_MISMATCH:`);
    }
    expect(stateFiles()).toEqual([]);
    const sum = execFileSync('sha224sum', ['small.bin'], { cwd: work, encoding: 'utf8' });
    const match = await cli(['hash', '-f', 'small.bin', '--expect', sum.slice(0, 56)], {
      SHA224D_URL: server.url,
      SHA224D_RESUMABLE_MIN_BYTES: String(MiB),
    }).done;
    expect(match).toMatchObject({ code: 0, stdout: sum, stderr: '' });
    // `check` verifies each listed file on ingest: a tampered line is FAILED, exit 1.
    fs.writeFileSync(path.join(work, 'SUMS'), `${wrong}  small.bin\n`);
    const check = await cli(['check', 'SUMS'], { SHA224D_URL: server.url, SHA224D_RESUMABLE_MIN_BYTES: String(MiB) }).done;
    expect(check).toMatchObject({ code: 1, stdout: 'small.bin: FAILED\n' });
  }, 300_000);
});
