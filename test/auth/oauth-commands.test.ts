import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jwtCommand, oauthCommand } from '../../deploy/admin/oauth-commands.js';
import { createJwtVerifier } from '../../shared/auth/jwt.js';
import { hashOAuthSecret } from '../../shared/oauth/tokens.js';
import { loadConfig } from '../../shared/config.js';
import { databaseOptionsFromConfig } from '../../shared/store/database.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';

const SECRET = 'cli-test-secret-0123456789-abcdefghijklmnop';

describe('admin commands: oauth and jwt', () => {
  const saved = { ...process.env };
  let dir: string;
  let store: KyselyAccountStore;
  let enterprise: string;
  let pro: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-cli-'));
    delete process.env.DATABASE_URL;
    Object.assign(process.env, { DATA_DIR: dir, JWT_SECRET: SECRET, JWT_ISSUER: 'cli-test' });
    store = await createStore(databaseOptionsFromConfig(loadConfig()));
    enterprise = (await store.createAccount({ name: 'e', plan: 'enterprise' })).id;
    pro = (await store.createAccount({ name: 'p', plan: 'pro' })).id;
  });
  afterAll(async () => {
    await store.close();
    process.env = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function run(command: 'oauth' | 'jwt', args: string[]): Promise<string> {
    let printed = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed += String(chunk);
      return true;
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await (command === 'oauth' ? oauthCommand() : jwtCommand()).parseAsync(args, { from: 'user' });
    } finally {
      spy.mockRestore();
      stderr.mockRestore();
    }
    return printed;
  }

  it('oauth register prints the id and the secret once; list shows no secret; delete removes', async () => {
    const printed = await run('oauth', [
      'register',
      '--account',
      enterprise,
      '--name',
      'CLI app',
      '--redirect-uri',
      'https://a.example/cb',
      '--redirect-uri',
      'http://127.0.0.1:9/cb',
    ]);
    const clientId = /Client id: (\S+)/.exec(printed)![1]!;
    const secret = /Client secret: (\S+)/.exec(printed)![1]!;
    const found = await store.oauthServer.findClient(clientId);
    expect(found?.client.redirectUris).toEqual(['https://a.example/cb', 'http://127.0.0.1:9/cb']);
    expect(found?.secretHash).toBe(hashOAuthSecret(secret));

    const listed = await run('oauth', ['list', '--account', enterprise]);
    expect(listed).toContain(clientId);
    expect(listed).not.toContain(secret);

    expect(await run('oauth', ['delete', clientId])).toContain(`Deleted ${clientId}`);
    await expect(run('oauth', ['delete', clientId])).rejects.toThrow(/No OAuth client/);
  });

  it('oauth register --public prints no secret', async () => {
    const printed = await run('oauth', [
      'register',
      '--account',
      enterprise,
      '--name',
      'Native',
      '--redirect-uri',
      'http://127.0.0.1:9/cb',
      '--public',
    ]);
    expect(printed).toMatch(/Client id: s224c_/);
    expect(printed).not.toMatch(/secret/i);
  });

  it('oauth register refuses a non-Enterprise account', async () => {
    await expect(
      run('oauth', ['register', '--account', pro, '--name', 'x', '--redirect-uri', 'https://a.example/cb']),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('jwt issue prints a token the verifier accepts', async () => {
    const token = (
      await run('jwt', ['issue', '--account', enterprise, '--permissions', 'hash:create,hash:verify', '--lifetime', '300'])
    ).trim();
    const principal = await createJwtVerifier({ secret: SECRET, issuer: 'cli-test', store }).verify(token);
    expect(principal).toMatchObject({ accountId: enterprise, via: 'jwt', permissions: ['hash:create', 'hash:verify'] });
  });

  it('jwt issue refuses unknown permissions and non-Enterprise accounts', async () => {
    await expect(run('jwt', ['issue', '--account', enterprise, '--permissions', 'root'])).rejects.toThrow();
    await expect(run('jwt', ['issue', '--account', pro, '--permissions', 'hash:create'])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
