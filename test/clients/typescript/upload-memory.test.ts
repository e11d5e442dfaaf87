/**
 * A 1 GiB upload through the SDK from a generated stream, in a child process running the built SDK
 * with plain node: the upload is streamed, so the client's RSS stays under 150 MB on Node 20, and
 * under the same bytes sent through Node's bare fetch + 40 MB on Node 24, where the runtime needs more
 * (test/helpers/memory-reference.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memoryBudget } from '../../helpers/memory-reference.js';
import { startEmbedded, type EmbeddedServer } from './helpers.js';

const GiB = 1024 * 1024 * 1024;
let server: EmbeddedServer;

beforeAll(async () => {
  server = await startEmbedded();
});
afterAll(() => server.stop());

interface UploadResult {
  hash: string;
  expected: string;
  size: number;
  peakRss: number;
  progressCalls: number;
}

async function upload(mode: 'sdk' | 'bare'): Promise<UploadResult> {
  const child = path.join(import.meta.dirname, 'fixtures', 'upload-generated.mjs');
  const { stdout } = await promisify(execFile)(process.execPath, [child, server.url, server.key, String(GiB), mode], { timeout: 120_000 });
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as UploadResult;
  expect(result.size).toBe(GiB);
  expect(result.hash).toBe(result.expected);
  return result;
}

it('uploads 1 GiB from a generated stream with the client under 150 MB RSS (Node 24: bare fetch + 40 MB)', async () => {
  const reference = await upload('bare');
  const result = await upload('sdk');
  console.log(
    `client peak RSS for 1 GiB: SDK ${(result.peakRss / 1e6).toFixed(1)} MB, bare fetch ${(reference.peakRss / 1e6).toFixed(1)} MB`,
  );
  expect(result.progressCalls).toBeGreaterThanOrEqual(1024);
  expect(result.peakRss).toBeLessThan(memoryBudget(150e6, reference.peakRss, 40e6));
}, 240_000);
