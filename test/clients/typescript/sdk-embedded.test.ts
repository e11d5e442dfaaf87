/** The SDK against `npm start`'s bundle as a process (embedded mode: SQLite, in-process queue). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sha224dClient } from '../../../api/clients/typescript/src/node.js';
import { describeV1 } from './every-method-v1.js';
import { describeV2 } from './every-method-v2.js';
import { startEmbedded, type EmbeddedServer } from './helpers.js';
import { sha224Hex } from '../../helpers/digests.js';
import { pickUnusedPort } from '../../helpers/ports.js';

let server: EmbeddedServer;
let sandboxUrl: string;

beforeAll(async () => {
  // Chosen in advance: SANDBOX_PORT=0 would listen, but the sandbox is recognised by the configured number.
  const port = await pickUnusedPort();
  server = await startEmbedded({ SANDBOX_PORT: String(port) });
  await server.proc.waitFor(/sandbox listening on port/);
  sandboxUrl = `http://127.0.0.1:${port}`;
});
afterAll(() => server.stop());

describeV2('embedded', () => server);
describeV1('embedded', () => server);

describe('embedded: credentials and the sandbox', () => {
  it('a token source is asked again, once, after a 401', async () => {
    const tokens = ['s224_stale0000000000000000000000000000000000', server.key];
    const calls: string[] = [];
    const client = new Sha224dClient({
      baseUrl: server.url,
      tokenSource: () => {
        const token = tokens[Math.min(calls.length, tokens.length - 1)]!;
        calls.push(token);
        return token;
      },
    });
    expect((await client.v2.hash({ data: 'abc' })).hash).toBe(sha224Hex('abc'));
    expect((await client.v1.hash({ data: 'abc' })).hash).toBe(sha224Hex('abc'));
    expect(calls).toEqual(tokens);
  });

  it('a source whose fresh token is refused too fails after one refresh', async () => {
    let calls = 0;
    const client = new Sha224dClient({ baseUrl: server.url, tokenSource: () => (calls++, 's224_neverworks000000000000000000000000000') });
    await expect(client.v2.hash({ data: 'abc' })).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(calls).toBe(2);
  });

  it('a bearer token is sent as Authorization: Bearer on both generations', async () => {
    const client = new Sha224dClient({ baseUrl: server.url, bearerToken: server.key });
    expect((await client.v2.hash({ data: 'x' })).hash).toBe(sha224Hex('x'));
    expect((await client.v1.hashText({ text: 'x' })).hash).toBe(sha224Hex('x'));
  });

  it('sandbox: true sends requests to the sandbox, whose usage is counted apart', async () => {
    const production = new Sha224dClient({ apiKey: server.key, baseUrl: server.url });
    const sandbox = new Sha224dClient({ apiKey: server.key, baseUrl: server.url, sandboxUrl, sandbox: true });
    expect(sandbox.baseUrl).toBe(sandboxUrl);
    const before = (await sandbox.v1.usage()).account.quota.used;
    await sandbox.v1.hash({ data: 'abc' });
    const productionUsed = (await production.v1.usage()).account.quota.used;
    await sandbox.v1.hash({ data: 'abc' });
    // The two sandbox hashes; reading usage is outside the daily quota (docs/limits.md "Headers and errors").
    expect((await sandbox.v1.usage()).account.quota.used).toBe(before + 2);
    expect((await production.v1.usage()).account.quota.used).toBe(productionUsed);
    expect(() => new Sha224dClient({ apiKey: server.key, sandbox: true })).toThrow(/sandboxUrl/);
  });
});
