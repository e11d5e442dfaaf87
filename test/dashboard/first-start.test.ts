/**
 * First start of `npm start` (dist/embedded.js): besides the API key it prints a one-time link that
 * sets the first owner's password; the link works once; the admin CLI (dist/admin.js) adds people
 * and issues reset links that work in the running server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnEntry, spawnNode, type SpawnedProcess } from '../helpers/spawn.js';

const PASSWORD = 'first owner password';
let dataDir: string;
let proc: SpawnedProcess;
let base: string;
let accountId: string;
let firstLink: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-first-'));
  proc = spawnEntry('embedded', { DATA_DIR: dataDir, PORT: '0', ADMIN_EMAIL: 'owner@example.com' });
  base = (await proc.waitFor(/listening on (http:\/\/[\d.:]+)/))[1]!;
  firstLink = (await proc.waitFor(/set the password of owner@example\.com within 24 hours \(the link works once\): (\S+)/))[1]!;
}, 60_000);
afterAll(async () => {
  await proc?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function admin(...args: string[]): Promise<{ code: number | null; out: string }> {
  const p = spawnNode('admin', [path.join(ROOT, 'dist', 'admin.js'), ...args], { DATA_DIR: dataDir, DATABASE_URL: '' });
  const code = await p.exited;
  return { code, out: p.output() };
}

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const tokenOf = (link: string) => new URL(link).hash.replace(/^#token=/, '');

describe('first start', () => {
  it('prints the key and the setup link once, the link on this server, in the fragment', () => {
    expect(proc.output().match(/API key: s224_\w+/g)).toHaveLength(1);
    expect(proc.output().match(/One-time|set the password of/g)).toHaveLength(1);
    expect(firstLink.startsWith(`${base}/dashboard/set-password#token=`)).toBe(true);
    expect(proc.output()).toContain(
      `A lost link is replaced with: DATA_DIR=${dataDir} npm run admin -- users reset-password owner@example.com\n`,
    );
  });

  it('the link sets the password once and signs the owner in', async () => {
    const info = await post(`${base}/dashboard/api/links/inspect`, { token: tokenOf(firstLink) });
    expect(info).toEqual({ status: 200, body: { email: 'owner@example.com', purpose: 'setup' } });
    const set = await post(`${base}/dashboard/api/links/set-password`, { token: tokenOf(firstLink), password: PASSWORD });
    expect(set.status).toBe(200);
    expect(set.body.memberships).toEqual([expect.objectContaining({ accountName: 'admin', plan: 'enterprise', role: 'owner' })]);
    accountId = set.body.memberships[0].accountId;
    const again = await post(`${base}/dashboard/api/links/set-password`, { token: tokenOf(firstLink), password: 'another password here' });
    expect(again.status).toBe(404);
    const signIn = await post(`${base}/dashboard/api/session`, { email: 'owner@example.com', password: PASSWORD });
    expect(signIn.status).toBe(200);
  });

  it('admin users create issues a setup link; users list shows both people; reset-password voids the older link', async () => {
    const created = await admin('users', 'create', '--account', accountId, '--email', 'dev@example.com', '--role', 'developer');
    expect(created.code).toBe(0);
    expect(created.out).toContain(`dev@example.com is now developer of ${accountId}`);
    const setup = /One-time link \(valid until (\S+), works once\): (\S+)/.exec(created.out)!;
    const hours = (Date.parse(setup[1]!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const reset = await admin('users', 'reset-password', 'dev@example.com');
    expect(reset.code).toBe(0);
    const newer = /One-time link .*: (\S+)/.exec(reset.out)![1]!;
    expect((await post(`${base}/dashboard/api/links/inspect`, { token: tokenOf(setup[2]!) })).status).toBe(404);
    expect((await post(`${base}/dashboard/api/links/set-password`, { token: tokenOf(newer), password: 'developer password' })).status).toBe(
      200,
    );

    const list = await admin('users', 'list', '--account', accountId);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/owner@example\.com\s+usr_\S+\s+\S+\s+owner\s+set/);
    expect(list.out).toMatch(/dev@example\.com\s+usr_\S+\s+\S+\s+developer\s+set/);
  });

  it("the printed recovery command works as printed, from the repository without the server's DATA_DIR", { timeout: 60_000 }, async () => {
    const printed = /^A lost link is replaced with: (.+)$/m.exec(proc.output())![1]!;
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATA_DIR;
    delete env.DATABASE_URL;
    const run = spawn('bash', ['-c', printed], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    run.stdout.on('data', (c: Buffer) => (out += c.toString()));
    run.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => run.once('close', resolve));
    expect(code, out).toBe(0);
    expect(out).toMatch(/One-time link \(valid until \S+, works once\): http:\/\/\S+\/dashboard\/set-password#token=s224l_/);
    expect(fs.existsSync(path.join(ROOT, 'data', 'sha224d.sqlite'))).toBe(false);
  });

  it('refuses an unknown person and a bad role with exit code 2', async () => {
    const unknown = await admin('users', 'reset-password', 'nobody@example.com');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain('No person signs in as nobody@example.com');
    const role = await admin('users', 'create', '--account', accountId, '--email', 'x@example.com', '--role', 'emperor');
    expect(role.code).toBe(2);
  });
});
