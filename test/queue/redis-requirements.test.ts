/**
 * What Redis must be configured with (README "Running distributed"), checked at the start of every
 * distributed process: private redis-servers with the wrong, the right and an unreadable
 * configuration, and a real API node that warns about the wrong one.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/log.js';
import { checkRedisRequirements, logRedisRequirements, redisProblems } from '../../shared/queue/redis-requirements.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { startPrivateRedis, stopRedisServer } from './redis-helpers.js';

describe('redisProblems', () => {
  it('none for noeviction with AOF every second or always', () => {
    expect(redisProblems({ maxmemoryPolicy: 'noeviction', appendonly: 'yes', appendfsync: 'everysec' })).toEqual([]);
    expect(redisProblems({ maxmemoryPolicy: 'noeviction', appendonly: 'yes', appendfsync: 'always' })).toEqual([]);
  });

  it('names an evicting policy, persistence off, and fsync left to the OS', () => {
    expect(redisProblems({ maxmemoryPolicy: 'allkeys-lru', appendonly: 'no', appendfsync: 'everysec' })).toEqual([
      'maxmemory-policy is allkeys-lru, not noeviction: under memory pressure Redis may evict queued jobs',
      'appendonly is off: a Redis restart loses every queued job (set appendonly yes, appendfsync everysec)',
    ]);
    expect(redisProblems({ maxmemoryPolicy: 'volatile-ttl', appendonly: 'yes', appendfsync: 'no' })).toEqual([
      'maxmemory-policy is volatile-ttl, not noeviction: under memory pressure Redis may evict queued jobs',
      'appendfsync is no: a crash loses the jobs the OS had not yet written (use everysec or always)',
    ]);
  });

  it('settings the server does not report are not guessed at', () => {
    expect(redisProblems({ maxmemoryPolicy: undefined, appendonly: undefined, appendfsync: undefined })).toEqual([]);
  });
});

describe('a private redis-server', () => {
  const servers: ChildProcess[] = [];
  const clients: Redis[] = [];
  const dirs: string[] = [];
  let api: SpawnedProcess | undefined;
  afterEach(async () => {
    await api?.stop('SIGKILL');
    api = undefined;
    for (const client of clients.splice(0)) client.disconnect();
    for (const server of servers.splice(0)) await stopRedisServer(server);
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(extraArgs: string[]): Promise<{ url: string; redis: Redis }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-redis-'));
    dirs.push(dir);
    // --dir: an AOF switched on below is written in a temp directory, not the working tree.
    const server = await startPrivateRedis(['--dir', dir, ...extraArgs]);
    servers.push(server.child);
    const redis = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    clients.push(redis);
    return { url: server.url, redis };
  }

  function capture(): { logger: ReturnType<typeof createLogger>; lines: () => Array<{ level: number; msg: string }> } {
    let text = '';
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _e, done) {
          text += chunk.toString();
          done();
        },
      }),
    );
    const lines = () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { level: number; msg: string });
    return { logger, lines };
  }

  it('allkeys-lru without persistence: a distributed API node logs a warning naming both', async () => {
    const { url, redis } = await start(['--maxmemory-policy', 'allkeys-lru']);
    expect(await checkRedisRequirements(redis)).toEqual({
      readable: true,
      settings: { maxmemoryPolicy: 'allkeys-lru', appendonly: 'no', appendfsync: 'everysec' },
      problems: [
        'maxmemory-policy is allkeys-lru, not noeviction: under memory pressure Redis may evict queued jobs',
        'appendonly is off: a Redis restart loses every queued job (set appendonly yes, appendfsync everysec)',
      ],
    });

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-redis-api-'));
    dirs.push(dataDir);
    api = spawnEntry('api', { REDIS_URL: url, DATA_DIR: dataDir, PORT: '0', BOOTSTRAP_ADMIN: 'false', LOG_LEVEL: 'warn' });
    const [line] = await api.waitFor(/^.*Redis may lose accepted jobs.*$/m, 20_000);
    const entry = JSON.parse(line) as { level: number; msg: string; redis: Record<string, string>; problems: string[] };
    expect(entry.level).toBe(40);
    expect(entry.redis).toEqual({ maxmemoryPolicy: 'allkeys-lru', appendonly: 'no', appendfsync: 'everysec' });
    expect(entry.problems).toHaveLength(2);
    expect(entry.msg).toContain('maxmemory-policy is allkeys-lru, not noeviction');
    expect(entry.msg).toContain('appendonly is off');
    expect(entry.msg).toContain('README "Running distributed"');
  });

  it('noeviction with AOF every second: nothing is logged', async () => {
    const { redis } = await start(['--maxmemory-policy', 'noeviction']);
    await redis.call('CONFIG', 'SET', 'appendonly', 'yes');
    const { logger, lines } = capture();
    expect(await logRedisRequirements(redis, logger)).toMatchObject({ readable: true, problems: [] });
    expect(lines()).toEqual([]);
  });

  it('CONFIG disabled (as on managed services): tolerated, noted at info level, no warning', async () => {
    const { redis } = await start(['--rename-command', 'CONFIG', '']);
    const { logger, lines } = capture();
    const check = await logRedisRequirements(redis, logger);
    expect(check.readable).toBe(false);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ level: 30 });
    expect(lines()[0]?.msg).toMatch(/^Redis configuration could not be read \(CONFIG refused\); Redis needs maxmemory-policy noeviction/);
  });
});
