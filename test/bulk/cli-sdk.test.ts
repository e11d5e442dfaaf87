/**
 * Bulk jobs through the TypeScript SDK (`client.v2.bulk`) and the `sha224d bulk` command, against
 * an embedded server process (dist/embedded.js): results in input order, checked with node:crypto.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sha224dClient } from '../../api/clients/typescript/src/node.js';
import { runCli, startEmbedded, type CliRun, type EmbeddedServer } from '../clients/typescript/helpers.js';
import { checkResults, expectedLine, itemAt, ndjsonBody } from './items.js';

let server: EmbeddedServer;
let work: string;

beforeAll(async () => {
  server = await startEmbedded({ BULK_CHUNK_ITEMS: '500' });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bulk-cli-'));
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

function run(args: string[]): Promise<CliRun> {
  return runCli(args, {
    cwd: work,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: work,
      XDG_CONFIG_HOME: path.join(work, 'config'),
      SHA224D_URL: server.url,
      SHA224D_API_KEY: server.key,
    },
  });
}

describe('bulk jobs from the SDK and the CLI', () => {
  it('client.v2.bulk: create from a generator of items, wait with progress, read the results in order', async () => {
    const client = new Sha224dClient({ apiKey: server.key, baseUrl: server.url });
    try {
      const created = await client.v2.bulk.create(
        (function* () {
          for (let n = 0; n < 5000; n++) yield itemAt(n);
        })(),
      );
      expect(created).toMatchObject({ status: 'running', items: { total: 5000 }, chunks: { total: 10 } });
      const seen: number[] = [];
      const done = await client.v2.bulk.wait(created.id, { intervalMs: 50, onProgress: (s) => seen.push(s.items.done + s.items.failed) });
      expect(done).toMatchObject({ status: 'completed', items: { done: 4995, failed: 5 } });
      expect(seen.at(-1)).toBe(5000);
      let n = 0;
      for await (const line of client.v2.bulk.results(created.id)) {
        const expected = expectedLine(n);
        expect(line.id).toBe(expected.id);
        if (expected.failed) expect('error' in line && line.error.code).toBe('INVALID_INPUT');
        else expect(line).toEqual({ id: expected.id, hash: expected.hash, bytes: expected.bytes });
        n++;
      }
      expect(n).toBe(5000);
      // A finished job stays as it is.
      expect((await client.v2.bulk.cancel(created.id)).status).toBe('completed');
    } finally {
      client.close();
    }
  });

  it('sha224d bulk FILE: a progress line on stderr, the result lines on stdout; exit 1 when an item failed', async () => {
    const file = path.join(work, 'items.ndjson');
    await new Promise<void>((resolve, reject) =>
      ndjsonBody(3000).pipe(fs.createWriteStream(file)).on('finish', resolve).on('error', reject),
    );
    const result = await run(['bulk', 'items.ndjson', '--interval', '0.1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/completed: 3000\/3000 items \(3 failed\)/);
    expect((await checkResults(Readable.from([result.stdout]), 3000)).failed).toBe(3);
    const out = await run(['bulk', 'items.ndjson', '--out', 'results.ndjson']);
    expect(out.stdout).toBe('');
    expect((await checkResults(fs.createReadStream(path.join(work, 'results.ndjson')), 3000)).lines).toBe(3000);
  });
});
