/**
 * A third party generates types from the served /openapi.json with openapi-typescript run with its
 * defaults (no option: whatever a default generator makes of the document must work), writes an
 * openapi-fetch client against them (./typed-client.fixture.ts), type-checks it with tsc under
 * strict, and runs it against a live embedded server (`npm start`'s bundle): every JSON operation
 * of the document is called and answers what node:crypto computes.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedServer } from '../clients/typescript/helpers.js';
import { SHA224_ABC, sha224Hex } from '../helpers/digests.js';

const ROOT = path.join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const OPENAPI_TS = path.join(ROOT, 'api', 'clients', 'typescript', 'node_modules', '.bin', 'openapi-typescript');
const ABC = SHA224_ABC;

let server: EmbeddedServer;
let dir: string;

beforeAll(async () => {
  server = await startEmbedded();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-typed-client-'));
  // The client's project resolves openapi-fetch and @types/node from the repository's node_modules.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023', 'DOM'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        types: ['node'],
      },
      files: ['client.ts', 'schema.d.ts'],
    }),
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('generated types compile a strict openapi-fetch client that calls every JSON operation of the live server', async () => {
  const res = await fetch(`${server.url}/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { paths: Record<string, Record<string, any>> };
  fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));

  // openapi-typescript's defaults: a property with a `default` in a component schema is required.
  await run(OPENAPI_TS, ['openapi.json', '--output', 'schema.d.ts'], { cwd: dir });
  const fixture = fs.readFileSync(path.join(import.meta.dirname, 'typed-client.fixture.ts'), 'utf8');
  const importLine = "from '../../api/clients/typescript/src/generated/openapi.js';";
  expect(fixture).toContain(importLine);
  fs.writeFileSync(path.join(dir, 'client.ts'), fixture.replace(importLine, "from './schema.js';"));

  // Type-checked by the repository's TypeScript, under strict, against the freshly generated types.
  const tsc = await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
    cwd: dir,
  }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? 'tsc failed' }));
  expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
  // …and the types do refuse what the service refuses: a number as `data`, a job without its id.
  fs.writeFileSync(
    path.join(dir, 'wrong.ts'),
    [
      "import createClient from 'openapi-fetch';",
      "import type { paths } from './schema.js';",
      'const c = createClient<paths>();',
      "await c.POST('/v2/hash', { body: { data: 1 } });",
      "await c.GET('/v2/jobs/{id}', {});",
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'tsconfig.wrong.json'),
    JSON.stringify({ extends: './tsconfig.json', files: ['wrong.ts', 'schema.d.ts'] }),
  );
  const wrong = await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.wrong.json'], {
    cwd: dir,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  expect(wrong.stdout).toMatch(/wrong\.ts\(4,\d+\): error TS2322/);
  expect(wrong.stdout).toMatch(/wrong\.ts\(5,\d+\): error TS2/);

  const { stdout } = await run(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'client.ts', server.url, server.key],
    {
      cwd: dir,
      timeout: 60_000,
    },
  );
  const called = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
  expect(called).toMatchObject({
    hashV2: ABC,
    verifyV2: true,
    hmacV2: createHmac('sha224', 'key').update('abc').digest('base64'),
    batchV2: [ABC],
    getJobV2: [ABC],
    getJobV2NotFound: 'NOT_FOUND',
    logDigestV2: ABC,
    getBulkV2: 1,
    cancelBulkV2: true,
    hashV1: ABC,
    hmacV1: createHmac('sha224', 'key').update('abc').digest('hex'),
    verifyV1: true,
    getUsageV1: 'object',
    hashTextV1: ABC,
    verifyTextV1: true,
    batchHashV1: [ABC],
    batchVerifyV1: [true],
    compareV1: true,
    getStatusV1: 'operational',
    hashUrlV1: sha224Hex('{"status":"ok"}'),
    getHealth: 'ok',
    getReadiness: 'ready',
    getOpenApiDocument: 'object',
    getAsyncApiDocument: 'object',
    getSdkManifest: ['sha224.min.js', 'sha224.mjs'],
    getAuthorizationServerMetadata: new URL(server.url).origin,
    getOpenIdConfiguration: `${new URL(server.url).origin}/oauth/token`,
  });

  // "Every JSON operation": each operation whose body (if any) and 200 answer are JSON was called,
  // but the dashboard's own API, which takes a browser session (tested in test/management and test/dashboard).
  const json = Object.values(doc.paths).flatMap((item) =>
    Object.values(item).filter((op) => {
      if ((op.tags as string[] | undefined)?.includes('Dashboard')) return false;
      const body = op.requestBody?.content;
      const ok = op.responses?.['200']?.content;
      return (body === undefined || 'application/json' in body) && ok !== undefined && 'application/json' in ok;
    }),
  );
  const ids = json.map((op) => String(op.operationId)).sort();
  expect(ids.length).toBeGreaterThanOrEqual(20);
  expect(ids.filter((id) => !(id in called))).toEqual([]);
}, 180_000);
