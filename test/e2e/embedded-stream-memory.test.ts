/**
 * `npm start`'s entry as a real process: first start prints the key once; a 1 GiB /v2/stream
 * upload is hashed correctly while the server's peak RSS stays under 200 MB (issue 2).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peakRssBytes, spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';

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
    const res = await fetch(`${url}/v2/hash`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: '{"data":"abc"}' });
    expect((await res.json()).hash).toBe('23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7');
    // The key is stored only as a hash: its text appears nowhere in the SQLite file.
    const db = fs.readFileSync(path.join(dataDir, 'sha224d.sqlite'));
    expect(db.includes(Buffer.from(key))).toBe(false);
    expect(db.includes(Buffer.from(key.slice(5, 30)))).toBe(false);
  });

  it('hashes a 1 GiB chunked /v2/stream upload with peak RSS under 200 MB', async () => {
    const block = randomBytes(1024 * 1024);
    const expected = createHash('sha224');
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${url}/v2/stream`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/octet-stream' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      let sent = 0;
      const pump = (): void => {
        while (sent < GiB) {
          // Vary each block so the digest covers position, not just content.
          const chunk = Buffer.from(block);
          chunk.writeUInt32BE(sent / block.length, 0);
          expected.update(chunk);
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(result.status).toBe(200);
    const body = JSON.parse(result.body);
    expect(body).toMatchObject({ success: true, size: GiB, hash: expected.digest('hex') });
    const peak = peakRssBytes(proc.pid);
    console.log(`embedded server peak RSS after 1 GiB stream: ${(peak / 1e6).toFixed(1)} MB`);
    expect(peak).toBeLessThan(200e6);
  }, 180_000);
});
