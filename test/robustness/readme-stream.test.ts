/**
 * The README's /v2/stream command works as printed (`curl -T` alone sends PUT): the line is read
 * from README.md and run with bash and curl against a running service, and its answer is the
 * file's SHA-224.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { ROOT } from '../helpers/spawn.js';
import { sha224Hex } from '../helpers/digests.js';

const run = promisify(execFile);

describe('README: the /v2/stream curl line', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-readme-'));
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uploads big.iso with POST, chunked, and answers its SHA-224', async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('curl ') && l.includes('$B/v2/stream'));
    expect(line).toBeDefined();
    const bytes = randomBytes(3 * 1024 * 1024 + 5);
    fs.writeFileSync(path.join(dir, 'big.iso'), bytes);
    // The README writes its example files under F, a temp dir of its own; here F is this test's.
    const { stdout } = await run('bash', ['-c', `H="X-API-Key: ${s.keys.production}"; B=${s.url}; F=${dir}; ${line!}`], { cwd: dir });
    expect(JSON.parse(stdout)).toMatchObject({
      success: true,
      hash: sha224Hex(bytes),
      size: bytes.length,
    });
  });
});
