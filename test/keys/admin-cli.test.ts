/** The admin CLI end to end, spawned as `node dist/admin.js` (what `npm run admin` runs) on a temp SQLite DATA_DIR. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../shared/keys/api-keys.js';
import { API_KEY_PREFIX } from '../../shared/keys/format.js';
import { createStore } from '../../shared/store/kysely-store.js';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let dataDir: string;

function admin(...args: string[]): Promise<Result> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist/admin.js', ...args], { env }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const STACK_LINE = /^\s+at /m;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-cli-'));
  // The admin CLI opens only an existing store (the server creates it at first start).
  await (await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') })).close();
});
afterAll(async () => {
  await fs.promises.rm(dataDir, { recursive: true, force: true });
});

describe('admin CLI', () => {
  it('refuses a SQLite store that does not exist: says where it looked and how to name the right one, creates nothing', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-cli-none-'));
    const missing = path.join(parent, 'data');
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: missing };
      delete env.DATABASE_URL;
      for (const args of [
        ['users', 'reset-password', 'admin@localhost'],
        ['accounts', 'list'],
        ['usage', '--account', 'acc_x'],
      ]) {
        const result = await new Promise<Result>((resolve) => {
          execFile('npx', ['tsx', 'deploy/admin/cli.ts', ...args], { env }, (err, stdout, stderr) => {
            resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
          });
        });
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain(
          `error: No store at ${path.join(missing, 'sha224d.sqlite')} (DATA_DIR=${missing}); nothing was created. ` +
            'Run the admin CLI with the settings of the server: DATA_DIR=<its data directory> npm run admin -- …, ' +
            'or DATABASE_URL=postgres://… for PostgreSQL. The server creates its store at its first start.',
        );
        expect(result.stderr).not.toMatch(STACK_LINE);
      }
      expect(fs.readdirSync(parent)).toEqual([]);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('create account → create key → list shows no secret → revoke', async () => {
    const acc = await admin('accounts', 'create', '--name', 'Acme Ltd', '--plan', 'pro');
    expect(acc.code).toBe(0);
    const accountId = acc.stdout.trim();
    expect(accountId).toMatch(/^acc_[0-9a-f-]{36}$/);

    const list = await admin('accounts', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(accountId);
    expect(list.stdout).toMatch(/Acme Ltd\s+pro/);

    const created = await admin(
      'keys',
      'create',
      '--account',
      accountId,
      '--type',
      'client',
      '--description',
      'web app',
      '--domains',
      'App.Example.com, *.example.org',
      '--expires',
      '30d',
    );
    expect(created.code).toBe(0);
    const secret = /^API key: (\S+)$/m.exec(created.stdout)?.[1] ?? '';
    const keyId = /^Key id: (\S+)$/m.exec(created.stdout)?.[1] ?? '';
    expect(secret.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(keyId).toMatch(/^key_/);
    expect(created.stdout.split(secret)).toHaveLength(2); // printed exactly once

    const keys = await admin('keys', 'list', '--account', accountId);
    expect(keys.code).toBe(0);
    const body = secret.slice(API_KEY_PREFIX.length);
    expect(keys.stdout).not.toContain(secret);
    expect(keys.stdout).not.toContain(body);
    expect(keys.stdout).not.toContain(secret.slice(12));
    expect(keys.stdout).not.toMatch(/[0-9a-f]{64}/); // no hash either
    expect(keys.stdout).toContain(`${secret.slice(0, 12)}…`);
    expect(keys.stdout).toMatch(new RegExp(`${keyId}.*client\\s+active`));
    expect(keys.stdout).toContain('app.example.com,*.example.org');

    // The database files themselves (main file and WAL) never hold the secret.
    for (const f of fs.readdirSync(dataDir)) {
      const bytes = fs.readFileSync(path.join(dataDir, f)).toString('latin1');
      expect(bytes).not.toContain(body);
    }

    // The key works until revoked.
    const store = await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') });
    try {
      await expect(authenticateApiKey(store, secret)).resolves.toMatchObject({ accountId, keyType: 'client' });

      const revoked = await admin('keys', 'revoke', keyId);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toContain(`Revoked ${keyId}`);
      const again = await admin('keys', 'revoke', keyId);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('already revoked');

      const after = await admin('keys', 'list');
      expect(after.stdout).toMatch(new RegExp(`${keyId}.*client\\s+revoked`));
      const fresh = await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') });
      try {
        await expect(authenticateApiKey(fresh, secret)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      } finally {
        await fresh.close();
      }
    } finally {
      await store.close();
    }

    const plan = await admin('accounts', 'set-plan', accountId, 'enterprise');
    expect(plan.code).toBe(0);
    expect((await admin('accounts', 'list')).stdout).toMatch(/Acme Ltd\s+enterprise/);

    const prod = await admin(
      'keys',
      'create',
      '--account',
      accountId,
      '--type',
      'production',
      '--description',
      'x',
      '--expires',
      '2001-01-01',
    );
    expect(prod.code).toBe(2);
    expect(prod.stderr).toContain('Expiry must be a date in the future');
    expect(prod.stderr).not.toMatch(STACK_LINE);
  }, 180_000);

  // Independent spawns: run side by side.
  it.concurrent.for<[string[], RegExp]>([
    [['accounts', 'create', '--name', 'x', '--plan', 'gold'], /Allowed choices/],
    [['accounts', 'create', '--plan', 'pro'], /--name/],
    [['accounts', 'set-plan', 'acc_x', 'gold'], /expected one of/],
    [['keys', 'create', '--account', 'acc_x', '--type', 'client', '--description', 'd'], /allowed domain/],
    [['keys', 'create', '--account', 'acc_x', '--type', 'production', '--description', 'd', '--expires', 'x'], /ISO date/],
    [['keys', 'create', '--account', 'acc_missing', '--type', 'production', '--description', 'd'], /Unknown account/],
    [['frobnicate'], /unknown command/],
    [[], /Usage/],
  ])('usage error %j exits 2 without a stack', { timeout: 120_000 }, async ([args, message], { expect }) => {
    const r = await admin(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it.concurrent.for<[string[], RegExp]>([
    [['keys', 'revoke', 'key_missing'], /No key key_missing/],
    [['accounts', 'set-plan', 'acc_missing', 'pro'], /No account acc_missing/],
  ])('failure %j exits 1 without a stack', { timeout: 120_000 }, async ([args, message], { expect }) => {
    const r = await admin(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it.concurrent('--help exits 0', { timeout: 120_000 }, async ({ expect }) => {
    const r = await admin('keys', 'create', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--domains');
  });
});
