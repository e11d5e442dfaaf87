/**
 * `npm start`'s entry as a real process: first start prints the key once; a 1 GiB /v2/stream
 * upload is hashed correctly while the server's peak RSS stays under 200 MB on Node 20, and under a
 * bare node:http reference + 130 MB on Node 24, where the runtime itself needs more
 * (test/helpers/memory-reference.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareServerPeakRss, memoryBudget, postGenerated } from '../helpers/memory-reference.js';
import { peakRssBytes, spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { SHA224_ABC } from '../helpers/digests.js';

const GiB = 1024 * 1024 * 1024;

describe('embedded mode as a process', () => {
  let proc: SpawnedProcess;
  let dataDir: string;
  let url: string;
  let key: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-e2e-'));
    proc = spawnEntry('embedded', { DATA_DIR: dataDir, PORT: '0' });
    url = (await proc.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    key = (await proc.waitFor(/API key: (s224_\w+)/))[1]!;
  });
  afterAll(async () => {
    await proc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the key once, with a curl line that works', async () => {
    expect(proc.output().match(/API key: /g)).toHaveLength(1);
    const res = await fetch(`${url}/v2/hash`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{"data":"abc"}',
    });
    expect((await res.json()).hash).toBe(SHA224_ABC);
    // The key is stored only as a hash: its text appears nowhere in the SQLite file.
    const db = fs.readFileSync(path.join(dataDir, 'sha224d.sqlite'));
    expect(db.includes(Buffer.from(key))).toBe(false);
    expect(db.includes(Buffer.from(key.slice(5, 30)))).toBe(false);
  });

  it('hashes a 1 GiB chunked /v2/stream upload with peak RSS under 200 MB (Node 24: the bare reference + 130 MB)', async () => {
    const reference = await bareServerPeakRss(GiB);
    const result = await postGenerated(`${url}/v2/stream`, GiB, { 'x-api-key': key });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ success: true, size: GiB, hash: result.sentDigest });
    const peak = peakRssBytes(proc.pid);
    console.log(`1 GiB stream peak RSS: embedded ${(peak / 1e6).toFixed(1)} MB, bare node:http ${(reference / 1e6).toFixed(1)} MB`);
    expect(peak).toBeLessThan(memoryBudget(200e6, reference, 130e6));
  }, 240_000);
});
