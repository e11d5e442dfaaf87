/**
 * The queue UI (bull-board at /admin/queues) on a real distributed deployment: API node and
 * worker processes on a private redis-server. Asserts the token guard (401 without or with a wrong
 * token, Bearer and Basic accepted), 404 where ADMIN_TOKEN is unset, read-only by default, job data
 * redacted in its JSON API, and that the page renders in headless Chromium under its
 * Content-Security-Policy with every request staying on the node: a 1440 px screenshot is written
 * to test/artifacts/queue-board.png (git-ignored).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_BOARD_CSP } from '../../api/admin/queue-board.js';
import { QUEUE_NAMES } from '../../shared/jobs/contracts.js';
import { bullQueueName } from '../../shared/naming.js';
import { launchChromium } from '../helpers/chromium.js';
import { sha224Hex } from '../helpers/digests.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { startTestServer } from '../helpers/api-server.js';
import { ROOT } from '../helpers/spawn.js';
import { startPrivateRedis, stopRedisServer } from '../queue/redis-helpers.js';
import { waitFor } from '../helpers/wait.js';

const TOKEN = 'operator-token-0123456789-abcdefghijklmnop';
const ARTIFACTS = path.join(import.meta.dirname, '..', 'artifacts');
const SECRET_INPUT = 'board-input-that-must-not-show';

interface BoardQueue {
  name: string;
  displayName?: string;
  counts: Record<string, number>;
  readOnlyMode: boolean;
  isPaused: boolean;
  jobs: Array<{ id: string; data: unknown; returnValue: unknown }>;
}

let redis: ChildProcess;
let cluster: Cluster;
let base: string;

const bearer = { authorization: `Bearer ${TOKEN}` };

describe('queue UI at /admin/queues (distributed mode)', () => {
  beforeAll(async () => {
    const privateRedis = await startPrivateRedis();
    redis = privateRedis.child;
    // INLINE_MAX_BYTES=0: every request goes through the queue, so the board has jobs to show.
    cluster = await startCluster({
      apiNodes: 1,
      workers: 1,
      redisUrl: privateRedis.url,
      env: { ADMIN_TOKEN: TOKEN, INLINE_MAX_BYTES: '0' },
    });
    base = `${cluster.url(0)}/admin/queues`;
    // An async job: an answered synchronous one is deleted from Redis at once.
    const res = await fetch(`${cluster.url(0)}/v2/batch?async=true`, {
      method: 'POST',
      headers: { 'x-api-key': cluster.keys.production, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ id: 'secret', data: SECRET_INPUT }] }),
    });
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    const view = async () =>
      (await (await fetch(`${cluster.url(0)}/v2/jobs/${job_id}`, { headers: { 'x-api-key': cluster.keys.production } })).json()) as {
        status?: string;
        results?: Array<{ hash: string }>;
      };
    const job = await waitFor(
      async () => {
        const polled = await view();
        return polled.status === 'completed' && polled;
      },
      { what: 'the async job to complete' },
    );
    expect(job.results?.[0]?.hash).toBe(sha224Hex(SECRET_INPUT));
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    if (redis) await stopRedisServer(redis);
  });

  it('lists every queue through bull-board’s JSON API with the token, redacting job data', async () => {
    const res = await fetch(`${base}/api/queues?activeQueue=${bullQueueName('batch')}&status=completed&page=1&jobsPerPage=10`, {
      headers: bearer,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-powered-by')).toBeNull();
    const body = (await res.json()) as { queues: BoardQueue[] };
    expect(body.queues.map((q) => q.name).sort()).toEqual(QUEUE_NAMES.map(bullQueueName).sort());
    expect(body.queues.map((q) => q.displayName).sort()).toEqual([...QUEUE_NAMES].sort());
    const batch = body.queues.find((q) => q.name === bullQueueName('batch'))!;
    expect(batch.counts).toMatchObject({ completed: 1, failed: 0, active: 0, waiting: 0 });
    expect(batch.readOnlyMode).toBe(true);
    expect(batch.jobs).toHaveLength(1);
    expect(batch.jobs[0]!.data).toEqual({
      kind: 'batch',
      accountId: cluster.accountId,
      payload: { items: '[1 item]', encoding: 'utf8', parallel: true, output: 'hex' },
      // The request's id travels with its job (docs/operating.md "Following a request").
      trace: { requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      // An async job's events go to the account's webhook endpoints; none named (docs/webhooks.md).
      webhook: {},
    });
    expect(JSON.stringify(body)).not.toContain(SECRET_INPUT);
  });

  it('answers 401 without the token or with a wrong one; accepts Basic with the token as password', async () => {
    const wrongs: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: 'Bearer' },
      { authorization: `Basic ${Buffer.from(`ops:${TOKEN}-`).toString('base64')}` },
      { authorization: `Basic ${Buffer.from(TOKEN).toString('base64')}` },
      { 'x-api-key': cluster.keys.production },
      { authorization: `Bearer ${cluster.keys.production}` },
    ];
    for (const path of ['/', '/api/queues', '/static/images/logo.svg', '/queue/sha224d-hash']) {
      for (const headers of wrongs) {
        const res = await fetch(`${base}${path}`, { headers });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(
          'Bearer realm="sha224d operators", Basic realm="sha224d operators", charset="UTF-8"',
        );
        const body = (await res.json()) as { success: boolean; error: { code: string; message: string } };
        expect(body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid or missing operator token' } });
      }
    }
    const basic = await fetch(`${base}/api/queues`, {
      headers: { authorization: `Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}` },
    });
    expect(basic.status).toBe(200);
  });

  it('is read-only unless ADMIN_QUEUE_WRITE=true', async () => {
    const pause = await fetch(`${base}/api/queues/${bullQueueName('hash')}/pause`, { method: 'PUT', headers: bearer });
    expect(pause.status).toBe(405);
    const after = (await (await fetch(`${base}/api/queues`, { headers: bearer })).json()) as { queues: BoardQueue[] };
    expect(after.queues.every((q) => !q.isPaused && q.readOnlyMode)).toBe(true);

    const writable = await cluster.addApi({ ADMIN_QUEUE_WRITE: 'true' });
    const url = `${writable.url}/admin/queues/api/queues/${bullQueueName('url')}`;
    expect((await fetch(`${url}/pause`, { method: 'PUT', headers: bearer })).status).toBe(200);
    const paused = (await (await fetch(`${writable.url}/admin/queues/api/queues`, { headers: bearer })).json()) as { queues: BoardQueue[] };
    expect(paused.queues.find((q) => q.name === bullQueueName('url'))).toMatchObject({ isPaused: true, readOnlyMode: false });
    expect((await fetch(`${url}/resume`, { method: 'PUT', headers: bearer })).status).toBe(200);
  });

  it('is absent (404) on a node without ADMIN_TOKEN', async () => {
    const node = await cluster.addApi({ ADMIN_TOKEN: '' });
    for (const headers of [{}, bearer]) {
      const res = await fetch(`${node.url}/admin/queues/api/queues`, { headers });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
    expect((await fetch(`${node.url}/admin/queues`, { headers: bearer })).status).toBe(404);
  });

  it('renders in Chromium under its CSP with every request on this node (screenshot at 1440 px)', { timeout: 90_000 }, async () => {
    const page0 = await fetch(`${base}`, { headers: bearer });
    expect(page0.status).toBe(200);
    expect(page0.headers.get('content-security-policy')).toBe(QUEUE_BOARD_CSP);
    expect(page0.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page0.text();
    expect(html).toContain('<base href="/admin/queues/" />');
    expect(html).not.toContain('fonts.googleapis.com');

    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, extraHTTPHeaders: bearer });
      const page = await context.newPage();
      const problems: string[] = [];
      const origin = new URL(cluster.url(0)).origin;
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('request', (request) => {
        if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) problems.push(`left the node: ${request.url()}`);
      });
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${base}/`, { waitUntil: 'networkidle' });
      for (const name of QUEUE_NAMES) await page.getByText(name, { exact: true }).first().waitFor({ timeout: 20_000 });
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const file = path.join(ARTIFACTS, 'queue-board.png');
      await page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(10_000);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);

      // One queue's completed jobs: the job is listed, its input never shown.
      await page.goto(`${base}/queue/${bullQueueName('batch')}?status=completed`, { waitUntil: 'networkidle' });
      await page.getByText('1 item').first().waitFor({ timeout: 20_000 });
      expect(await page.content()).not.toContain(SECRET_INPUT);
      await page.screenshot({ path: path.join(ARTIFACTS, 'queue-board-batch.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await browser?.close();
    }
  });
});

describe('queue UI where it is not served', () => {
  it('is absent (404) in embedded mode, even with ADMIN_TOKEN set', async () => {
    const server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN } });
    try {
      for (const p of ['/admin/queues', '/admin/queues/', '/admin/queues/api/queues']) {
        const res = await fetch(`${server.url}${p}`, { headers: bearer });
        expect(res.status, p).toBe(404);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      }
    } finally {
      await server.close();
    }
  });

  it('bull-board is reached only through the dynamic import: no entry bundle loads it statically', () => {
    const dist = path.join(ROOT, 'dist');
    const staticImports = (file: string): string[] =>
      [...fs.readFileSync(path.join(dist, file), 'utf8').matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$|^import\s*"([^"]+)";?$/gm)].map(
        (m) => (m[1] ?? m[2])!,
      );
    for (const entry of ['api.js', 'embedded.js', 'worker.js', 'admin.js']) {
      const seen = new Set<string>();
      const packages = new Set<string>();
      const visit = (file: string): void => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const spec of staticImports(file)) {
          if (spec.startsWith('./')) visit(spec.slice(2));
          else packages.add(spec);
        }
      };
      visit(entry);
      expect(seen.size, entry).toBeGreaterThan(1);
      // Express is bundled into the chunks, never imported at run time (docs/decisions.md "Speed").
      expect(packages.has('express'), entry).toBe(false);
      expect(
        [...packages].filter((p) => p.startsWith('@bull-board')),
        entry,
      ).toEqual([]);
    }
    const chunks = fs.readdirSync(dist).filter((f) => f.endsWith('.js'));
    const boardChunks = chunks.filter((f) => staticImports(f).some((p) => p.startsWith('@bull-board')));
    // dist/ is not emptied between builds, so older copies of the chunk may sit beside the current one.
    expect(boardChunks.length).toBeGreaterThan(0);
    for (const chunk of boardChunks) expect(chunk).toMatch(/^queue-board-ui-\w+\.js$/);
  });
});
