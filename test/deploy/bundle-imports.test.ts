/**
 * What each entry of dist/ loads at start: the packages reached through static imports, following
 * esbuild's chunks. A dynamic import stays lazy only because the bundles are code-split
 * (deploy/build.mjs); this catches a static import that would undo it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/spawn.js';

const DIST = path.join(ROOT, 'dist');
const STATIC_IMPORT = /^import\s*(?:[^"]*?from\s*)?"([^"]+)";/gms;
/** esbuild heads each bundled file with its path: the packages deploy/build.mjs bundles rather than imports. */
const BUNDLED_FILE = /^\/\/ node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\//gm;

/** esbuild's path comment of every bundled package file: `node_modules/<package>/<file>`. */
const BUNDLED_PATH = /^\/\/ node_modules\/(\S+)$/gm;

/** The chunks an entry loads before its first line runs: itself and what it imports statically. */
function chunksLoadedAtStart(entry: string): string[] {
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(path.join(DIST, file), 'utf8');
    for (const [, specifier] of text.matchAll(STATIC_IMPORT)) if (specifier!.startsWith('./')) walk(specifier!.slice(2));
  };
  walk(entry);
  return [...seen];
}

/** Package names an entry loads before its first line runs, imported or bundled. */
function packagesLoadedAtStart(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(path.join(DIST, file), 'utf8');
    for (const [, name] of text.matchAll(BUNDLED_FILE)) packages.add(name!);
    for (const [, specifier] of text.matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith('./')) walk(specifier!.slice(2));
      else if (!specifier!.startsWith('node:'))
        packages.add(specifier!.startsWith('@') ? specifier!.split('/').slice(0, 2).join('/') : specifier!.split('/')[0]!);
    }
  };
  walk(entry);
  return packages;
}

describe('packages loaded at start', () => {
  it('embedded mode loads no AWS SDK, no BullMQ, no Markdown renderer and no URL fetcher', () => {
    const loaded = packagesLoadedAtStart('embedded.js');
    expect(loaded).toContain('express'); // the walk itself works
    for (const lazy of ['@aws-sdk/client-s3', '@aws-sdk/lib-storage', 'bullmq', 'markdown-it', 'sanitize-html', 'undici'])
      expect(loaded).not.toContain(lazy);
  });

  it('embedded mode loads no engine of distributed mode: no Redis client, no PostgreSQL driver, no socket.io Redis adapter', () => {
    const loaded = packagesLoadedAtStart('embedded.js');
    expect(loaded).toContain('kysely'); // the walk reaches the engines (the account store)
    for (const distributedOnly of ['ioredis', 'pg', '@socket.io/redis-adapter', 'bullmq']) expect(loaded).not.toContain(distributedOnly);
  });

  it('no API node loads realtime, OAuth or JWT packages before their first use (docs/decisions.md "Cold start")', () => {
    for (const entry of ['embedded.js', 'api.js']) {
      const loaded = packagesLoadedAtStart(entry);
      expect(loaded).toContain('express');
      for (const lazy of ['socket.io', 'ws', '@socket.io/redis-adapter', '@node-oauth/oauth2-server', 'jose'])
        expect(loaded).not.toContain(lazy);
    }
  });

  it('the distributed API role loads its Redis client at start, and BullMQ only with its first queue (shared/queue/bullmq-load.ts)', () => {
    const loaded = packagesLoadedAtStart('api.js');
    expect(loaded).toContain('ioredis');
    expect(loaded).not.toContain('bullmq');
  });

  it('a worker loads no HTTP framework, no realtime server, no SQL driver, no limiter, no AWS SDK until S3 is configured and no URL fetcher until a URL job', () => {
    const loaded = packagesLoadedAtStart('worker.js');
    expect(loaded).toContain('bullmq');
    const http = ['express', 'socket.io', 'ws', 'markdown-it'];
    const sqlAndLimiter = ['kysely', 'pg', 'better-sqlite3', 'rate-limiter-flexible'];
    for (const absent of [...http, ...sqlAndLimiter, '@aws-sdk/client-s3', '@aws-sdk/lib-storage', 'undici'])
      expect(loaded).not.toContain(absent);
  });

  it('no API node bundles the package classes it never uses (deploy/build.mjs startCuts)', () => {
    for (const entry of ['embedded.js', 'api.js']) {
      const files = new Set(
        chunksLoadedAtStart(entry).flatMap((chunk) =>
          [...fs.readFileSync(path.join(DIST, chunk), 'utf8').matchAll(BUNDLED_PATH)].map((m) => m[1]!),
        ),
      );
      expect(files).toContain('rate-limiter-flexible/lib/RateLimiterMemory.js'); // the walk reaches the limiter
      expect(files).toContain('prom-client/lib/registry.js');
      for (const unused of [
        'rate-limiter-flexible/index.js',
        'rate-limiter-flexible/lib/RateLimiterMongo.js',
        'rate-limiter-flexible/lib/RateLimiterCluster.js',
        'prom-client/index.js',
        'prom-client/lib/pushgateway.js',
        'prom-client/lib/cluster.js',
      ])
        expect(files).not.toContain(unused);
    }
  });
});
