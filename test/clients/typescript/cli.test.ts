/**
 * The `sha224d` command as a user runs it (bin/sha224d.js on the built dist/), against an
 * embedded server: sha224sum-compatible output, `check` exit codes, progress bars only on a
 * terminal (under `script`), config file, --local, batch, jobs and exit codes.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sha224dClient } from '../../../api/clients/typescript/src/node.js';
import { ROOT } from '../../helpers/spawn.js';
import { CLI, hmacSha224, runCli, startContentServer, startEmbedded, type CliRun, type EmbeddedServer } from './helpers.js';
import { sha224Hex } from '../../helpers/digests.js';

let server: EmbeddedServer;
let work: string;
let env: Record<string, string>;

function run(args: string[], options: { env?: Record<string, string>; input?: string | Buffer; cwd?: string } = {}): Promise<CliRun> {
  return runCli(args, {
    cwd: options.cwd ?? work,
    env: { ...env, ...options.env },
    ...(options.input === undefined ? {} : { input: options.input }),
  });
}

beforeAll(async () => {
  server = await startEmbedded();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-cli-'));
  // A config home of its own, so no user's config is read; PATH and HOME for node and `script`.
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    XDG_CONFIG_HOME: path.join(work, 'config'),
    SHA224D_URL: server.url,
    SHA224D_API_KEY: server.key,
  };
  const big = Buffer.alloc(24 * 1024 * 1024);
  for (let i = 0; i < big.length; i += 4096) big.writeUInt32BE(i, i);
  fs.writeFileSync(path.join(work, 'big.bin'), big);
  fs.writeFileSync(path.join(work, 'with space.txt'), 'hello\n');
  fs.writeFileSync(path.join(work, 'back\\slash.txt'), 'escaped names\n');
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('sha224d hash and check', () => {
  it('hash -f big.bin prints the same line as sha224sum big.bin', async () => {
    const result = await run(['hash', '-f', 'big.bin']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(execFileSync('sha224sum', ['big.bin'], { cwd: work, encoding: 'utf8' }));
  });

  it('hash -f * > SUMS then sha224sum -c SUMS passes, names with spaces and backslashes included', async () => {
    const files = fs.readdirSync(work).filter((f) => f.endsWith('.txt') || f.endsWith('.bin'));
    const result = await run(['hash', '-f', ...files]);
    expect(result.stdout).toBe(execFileSync('sha224sum', files, { cwd: work, encoding: 'utf8' }));
    fs.writeFileSync(path.join(work, 'SUMS'), result.stdout);
    expect(execFileSync('sha224sum', ['-c', 'SUMS'], { cwd: work, encoding: 'utf8' })).toContain('big.bin: OK');
  });

  it('check SUMS exits 0 when all match and 1 on a tampered or missing file', async () => {
    fs.writeFileSync(path.join(work, 'a.dat'), 'original');
    fs.writeFileSync(path.join(work, 'b.dat'), 'kept');
    fs.writeFileSync(path.join(work, 'CHECK'), execFileSync('sha224sum', ['a.dat', 'b.dat'], { cwd: work }));
    expect(await run(['check', 'CHECK'])).toMatchObject({ code: 0, stdout: 'a.dat: OK\nb.dat: OK\n' });
    fs.writeFileSync(path.join(work, 'a.dat'), 'tampered');
    const tampered = await run(['check', 'CHECK']);
    expect(tampered).toMatchObject({ code: 1, stdout: 'a.dat: FAILED\nb.dat: OK\n' });
    expect(tampered.stderr).toContain('WARNING: 1 computed checksum did NOT match');
    fs.rmSync(path.join(work, 'b.dat'));
    const missing = await run(['check', '--quiet', 'CHECK']);
    expect(missing).toMatchObject({ code: 1, stdout: 'a.dat: FAILED\nb.dat: FAILED open or read\n' });
  });

  it('hash - reads stdin; TEXT, --json and --local agree with node:crypto', async () => {
    expect((await run(['hash', '-'], { input: 'from stdin' })).stdout).toBe(`${sha224Hex('from stdin')}  -\n`);
    expect((await run(['hash', 'abc'])).stdout).toBe(`${sha224Hex('abc')}\n`);
    expect(JSON.parse((await run(['--json', 'hash', '616263', '--encoding', 'hex'])).stdout)).toMatchObject({ hash: sha224Hex('abc') });
    const local = await run(['--local', 'hash', '-f', 'big.bin'], { env: { SHA224D_API_KEY: '', SHA224D_URL: 'http://127.0.0.1:9' } });
    expect(local.stdout).toBe(execFileSync('sha224sum', ['big.bin'], { cwd: work, encoding: 'utf8' }));
    expect((await run(['--local', 'hmac', 'message', '--secret', 'key'])).stdout).toBe(`${hmacSha224('key', 'message')}\n`);
  });

  it('verify and hmac through the service; verify exits 1 on a mismatch', async () => {
    expect(await run(['verify', 'abc', sha224Hex('abc')])).toMatchObject({ code: 0, stdout: 'OK\n' });
    expect(await run(['verify', 'abd', sha224Hex('abc')])).toMatchObject({ code: 1, stdout: 'FAILED\n' });
    expect(await run(['verify', '-f', 'with space.txt', sha224Hex('hello\n')])).toMatchObject({ code: 0, stdout: 'with space.txt: OK\n' });
    expect((await run(['hmac', 'message', '--secret', 'key', '-o', 'base64'])).stdout).toBe(`${hmacSha224('key', 'message', 'base64')}\n`);
  });
});

describe('progress bars', () => {
  it('appear on stderr under a pseudo-terminal, and not when piped', async () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} hash -f big.bin 2>&1 >/dev/null`;
    const { stdout: terminal } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { cwd: work, env });
    expect(terminal).toMatch(/█+.* 100% \| 24\.0 MiB \/ 24\.0 MiB \| big\.bin/);
    const piped = await run(['hash', '-f', 'big.bin']);
    expect(piped.stderr).toBe('');
  });
});

describe('other commands', () => {
  it('batch FILE.jsonl: 2,500 lines in three requests of at most 1000, printed in order', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) =>
      i % 3 === 0 ? JSON.stringify(`plain ${i}`) : JSON.stringify({ id: `n${i}`, data: `item ${i}` }),
    );
    fs.writeFileSync(path.join(work, 'items.jsonl'), `${lines.join('\n')}\n`);
    const client = new Sha224dClient({ apiKey: server.key, baseUrl: server.url });
    const before = (await client.v1.usage()).account.quota.used;
    const result = await run(['batch', 'items.jsonl', '--concurrency', '2']);
    expect(result.code).toBe(0);
    const out = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; hash: string });
    expect(out).toEqual(
      lines.map((_, i) =>
        // Items without an id get their 0-based index, as /v1/batch/hash numbers them.
        i % 3 === 0 ? { id: String(i), hash: sha224Hex(`plain ${i}`) } : { id: `n${i}`, hash: sha224Hex(`item ${i}`) },
      ),
    );
    // The three batch requests; reading usage is outside the daily quota.
    expect((await client.v1.usage()).account.quota.used).toBe(before + 3);
  });

  it('batch numbers items without an id from 0, skipping blank lines; a "text" field is refused with an example', async () => {
    fs.writeFileSync(path.join(work, 'ids.jsonl'), '"zero"\n\n{"data":"one"}\n{"id":"x","data":"two"}\n"three"\n');
    const result = await run(['batch', 'ids.jsonl']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      [
        { id: '0', hash: sha224Hex('zero') },
        { id: '1', hash: sha224Hex('one') },
        { id: 'x', hash: sha224Hex('two') },
        { id: '3', hash: sha224Hex('three') },
      ]
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(''),
    );
    fs.writeFileSync(path.join(work, 'text.jsonl'), '{"id":"b","text":"hello"}\n');
    expect(await run(['batch', 'text.jsonl'])).toMatchObject({
      code: 2,
      stderr: 'sha224d: text.jsonl:1: expected {"id": "a", "data": "hello"} or a JSON string such as "hello"\n',
    });
  });

  it('stops quietly when its reader closes the pipe early (batch … | head -1): status 141, nothing on stderr', async () => {
    // More output than a pipe holds (64 KiB), so writes must fail once head has gone.
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify(`line ${i}`));
    fs.writeFileSync(path.join(work, 'many.jsonl'), `${lines.join('\n')}\n`);
    for (const args of [
      ['batch', 'many.jsonl'],
      ['--local', 'batch', 'many.jsonl'],
    ]) {
      const cli = [process.execPath, CLI, ...args].map((a) => JSON.stringify(a)).join(' ');
      const script = `${cli} 2>stderr.txt | head -1; echo "\${PIPESTATUS[0]}" > status.txt`;
      const { stdout } = await promisify(execFile)('bash', ['-c', script], { cwd: work, env });
      expect(stdout).toBe(`{"id":"0","hash":"${sha224Hex('line 0')}"}\n`);
      expect(fs.readFileSync(path.join(work, 'stderr.txt'), 'utf8')).toBe('');
      expect(fs.readFileSync(path.join(work, 'status.txt'), 'utf8').trim()).toMatch(/^(?:0|141)$/);
    }
  });

  it('jobs submit FILE prints the job id alone; jobs wait prints the result; stdin and --json too', async () => {
    const submitted = await run(['jobs', 'submit', 'with space.txt']);
    expect(submitted).toMatchObject({ code: 0, stderr: '' });
    const id = submitted.stdout.trim();
    expect(submitted.stdout).toBe(`${id}\n`);
    expect(id).toMatch(/^\S+$/);
    expect((await run(['jobs', 'wait', id])).stdout).toBe(`${sha224Hex('hello\n')}  with space.txt\n`);
    const fromStdin = await run(['--json', 'jobs', 'submit', '-'], { input: 'piped in' });
    const accepted = JSON.parse(fromStdin.stdout) as { job_id: string; status: string };
    expect(['queued', 'active']).toContain(accepted.status);
    expect(JSON.parse((await run(['--json', 'jobs', 'wait', accepted.job_id])).stdout)).toMatchObject({
      status: 'completed',
      hash: sha224Hex('piped in'),
    });
    expect(await run(['jobs', 'submit', 'no-such-file'])).toMatchObject({
      code: 2,
      stderr: 'sha224d: no-such-file: No such file or directory\n',
    });
  });

  it('url, usage, status and jobs', async () => {
    const content = await startContentServer(Buffer.from('remote body'));
    try {
      expect((await run(['url', content.url])).stdout).toBe(`${sha224Hex('remote body')}  ${content.url}\n`);
    } finally {
      await content.close();
    }
    expect(JSON.parse((await run(['--json', 'usage'])).stdout)).toMatchObject({ success: true, account: { tier: 'Enterprise' } });
    expect((await run(['status'])).stdout).toMatch(/^status: operational/);
    const client = new Sha224dClient({ apiKey: server.key, baseUrl: server.url });
    const job = await client.jobs.submit('upload', path.join(work, 'with space.txt'));
    expect((await run(['jobs', 'wait', job.job_id])).stdout).toBe(`${sha224Hex('hello\n')}  with space.txt\n`);
    expect(JSON.parse((await run(['--json', 'jobs', 'get', job.job_id])).stdout)).toMatchObject({ status: 'completed' });
  });

  it('config set-key writes the key with mode 0600 under XDG_CONFIG_HOME, and it is used', async () => {
    const noEnvKey = { SHA224D_API_KEY: '' };
    expect(await run(['hash', 'abc'], { env: noEnvKey })).toMatchObject({ code: 2, stderr: expect.stringContaining('no API key') });
    expect((await run(['config', 'set-key', server.key])).code).toBe(0);
    const file = path.join(work, 'config', 'sha224d', 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ api_key: server.key });
    expect((await run(['hash', 'abc'], { env: noEnvKey })).stdout).toBe(`${sha224Hex('abc')}\n`);
    // --key wins over the file and the environment.
    expect(await run(['--key', 's224_wrong', 'hash', 'abc'])).toMatchObject({ code: 3, stderr: expect.stringContaining('UNAUTHORIZED') });
  });

  it('exit codes: 2 for usage errors, 3 for service errors; --help shows examples', async () => {
    expect((await run(['hash'])).code).toBe(2);
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['hash', '-f', 'no-such-file'])).code).toBe(2);
    expect((await run(['verify', 'abc', 'nothex'])).code).toBe(2);
    expect((await run(['hash', 'zz', '--encoding', 'hex'])).code).toBe(3);
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Examples:') });
    expect(help.stdout).toContain('$ id=$(sha224d jobs submit big.iso)');
    const batchHelp = await run(['batch', '--help']);
    expect(batchHelp.stdout).toContain('\n  {"id":"a","data":"hello"}\n');
    expect(batchHelp.stdout).toContain('\n  "hello"\n');
    expect(batchHelp.stdout).toContain('An item without an id gets its 0-based index');
    const configHelp = await run(['config', '--help']);
    expect(configHelp.stdout).toMatch(/^ {2}set-key <key> +save the API key in the config file \(mode 0600\)$/m);
    expect(configHelp.stdout).toMatch(/^ {2}set-url <url> +save the service address in the config file$/m);
    expect(configHelp.stdout).toMatch(/^ {2}show +print the address and key in effect/m);
  });

  it('npx sha224d works from the repository root (npm workspace bin)', () => {
    const out = execFileSync('npx', ['--no-install', 'sha224d', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    expect(out.trim()).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'api/clients/typescript/package.json'), 'utf8')).version);
  });
});
