/**
 * The browser build (dist/index.js, no dependencies) in headless Chromium, from another origin
 * with a client key allowed there: JSON calls of both generations, Blob uploads to /v2/file and
 * /v2/stream, and a WebSocket session on the browser's own WebSocket.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type * as sdkModule from '../../../api/clients/typescript/src/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openPage, serveStatic, type StaticServer } from '../../helpers/chromium.js';
import { createStore } from '../../../shared/store/kysely-store.js';
import { ROOT, spawnEntry, type SpawnedProcess } from '../../helpers/spawn.js';
import { CLIENT_DIR } from './helpers.js';
import { sha224Hex } from '../../helpers/digests.js';

type Sdk = typeof sdkModule;

let dataDir: string;
let api: SpawnedProcess;
let apiUrl: string;
let clientKey: string;
let pages: StaticServer;
let browser: Browser;

/** The admin CLI on the same data folder, before the server starts (so the key's domain is known at once). */
function admin(args: string[]): string {
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  return execFileSync(process.execPath, [path.join(ROOT, 'dist', 'admin.js'), ...args], { env, encoding: 'utf8', stdio: 'pipe' });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-browser-'));
  // The admin CLI opens only an existing store (the server creates it at first start).
  await (await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') })).close();
  const account = admin(['accounts', 'create', '--name', 'web', '--plan', 'enterprise']).trim();
  clientKey = /API key: (s224_\w+)/.exec(
    admin(['keys', 'create', '--account', account, '--type', 'client', '--description', 'web', '--domains', '127.0.0.1']),
  )![1]!;
  api = spawnEntry('embedded', { DATA_DIR: dataDir, PORT: '0', BOOTSTRAP_ADMIN: 'false' });
  apiUrl = (await api.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  const sdk = fs.readFileSync(path.join(CLIENT_DIR, 'dist', 'index.js'));
  pages = await serveStatic({
    '/': {
      type: 'text/html',
      body: '<!doctype html><title>sdk</title><script type="module">import * as sdk from "/sdk/index.js"; window.sdk = sdk;</script>',
    },
    '/sdk/index.js': { type: 'text/javascript', body: sdk },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await api?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('runs in Chromium: JSON calls, Blob uploads with progress, a WebSocket session', async () => {
  const page = await openPage(browser, `${pages.origin}/`);
  await page.waitForFunction(() => 'sdk' in window);
  const result = await page.evaluate(
    async ({ apiUrl, clientKey }) => {
      const { Sha224dClient } = (window as unknown as { sdk: Sdk }).sdk;
      const client = new Sha224dClient({ apiKey: clientKey, baseUrl: apiUrl });
      const bytes = new Uint8Array(300_000).map((_, i) => (i * 31) % 251);
      const progress: Array<{ sent: number; total: number | undefined }> = [];
      const session = client.realtime({ maxInFlight: 4 });
      const ws = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((d) => session.hash(d)));
      session.close();
      return {
        hash: (await client.v2.hash({ data: 'abc' })).hash,
        verify: (await client.v2.verify({ data: 'abc', hash: (await client.v2.hash({ data: 'abc' })).hash })).valid,
        text: (await client.v1.hashText({ text: 'hello world' })).hash,
        file: await client.v2.file(new File([bytes], 'page.bin'), { onProgress: (p) => progress.push(p) }),
        stream: (await client.v2.stream(new Blob([bytes]))).hash,
        progress,
        ws: ws.map((r) => r.hash),
      };
    },
    { apiUrl, clientKey },
  );
  const bytes = new Uint8Array(300_000).map((_, i) => (i * 31) % 251);
  expect(result.hash).toBe(sha224Hex('abc'));
  expect(result.verify).toBe(true);
  expect(result.text).toBe(sha224Hex('hello world'));
  expect(result.file).toMatchObject({ hash: sha224Hex(bytes), filename: 'page.bin', size: 300_000 });
  expect(result.stream).toBe(sha224Hex(bytes));
  expect(result.progress.at(-1)).toEqual({ sent: 300_000, total: 300_000 });
  expect(result.ws).toEqual(['a', 'b', 'c', 'd', 'e', 'f'].map((d) => sha224Hex(d)));
}, 60_000);
