/**
 * The committed artifacts in shared/sdk/dist: fresh (equal to a rebuild), within the size budget,
 * self-contained, and working where only ECMAScript and web-platform globals exist.
 */
import { readFileSync } from 'node:fs';
import { hash as nodeHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSdk, DIST_DIR, DIST_FILES, GZIP_BUDGET_BYTES } from '../../shared/sdk/build.js';
import type * as Sdk from '../../shared/sdk/sha224.js';

const read = (file: string): string => readFileSync(path.join(DIST_DIR, file), 'utf8');

describe('shared/sdk/dist', () => {
  let fresh: Awaited<ReturnType<typeof buildSdk>>;
  beforeAll(async () => {
    fresh = await buildSdk();
  });

  it('equals a fresh build (run `npm run build:sdk` after changing shared/sdk)', () => {
    expect(read(DIST_FILES.esm)).toBe(fresh.esm);
    expect(read(DIST_FILES.iife)).toBe(fresh.iife);
    expect(read(DIST_FILES.dts)).toBe(fresh.dts);
  });

  it(`the minified IIFE is at most ${GZIP_BUDGET_BYTES} bytes gzipped`, () => {
    expect(fresh.gzipBytes).toBeGreaterThan(1000);
    expect(fresh.gzipBytes).toBeLessThanOrEqual(GZIP_BUDGET_BYTES);
  });

  it('imports nothing and names no Node built-in', () => {
    for (const code of [fresh.esm, fresh.iife]) {
      expect(code).not.toMatch(/\bimport\s*[({'"a-zA-Z*]|\brequire\s*\(|node:|\bprocess\b|\bBuffer\b/);
    }
  });

  it('the IIFE defines the global SHA224 in a bare ECMAScript realm with only TextEncoder and btoa added', () => {
    const sandbox = vm.createContext({ TextEncoder, btoa });
    vm.runInContext(read(DIST_FILES.iife), sandbox);
    const run = (src: string): unknown => vm.runInContext(src, sandbox);
    expect(Object.keys(run('SHA224') as object).sort()).toEqual(['SHA224Class', 'hash', 'hmac', 'sha224', 'verify']);
    expect(run(`SHA224.hash('abc')`)).toBe(nodeHash('sha224', 'abc', 'hex'));
    expect(run(`new SHA224.SHA224Class().update('a').update(new Uint8Array([98, 99])).digest('base64')`)).toBe(nodeHash('sha224', 'abc', 'base64'));
    // Bytes from this realm are accepted in that one (ArrayBuffer.isView and tags, not instanceof).
    expect((run(`SHA224.hash`) as (m: Uint8Array) => string)(new Uint8Array([97, 98, 99]))).toBe(nodeHash('sha224', 'abc', 'hex'));
    expect((run(`SHA224.hash`) as (m: ArrayBuffer) => string)(new Uint8Array([97, 98, 99]).buffer)).toBe(nodeHash('sha224', 'abc', 'hex'));
  });

  it('the ESM exports sha224, SHA224 and SHA224Class, agreeing with the source', async () => {
    const esm = (await import(pathToFileURL(path.join(DIST_DIR, DIST_FILES.esm)).href)) as typeof Sdk;
    const m = new Uint8Array(1000).map((_, i) => i * 7);
    expect(esm.sha224(m)).toBe(nodeHash('sha224', m, 'hex'));
    expect(esm.SHA224.hash).toBe(esm.sha224);
    expect(esm.SHA224.SHA224Class).toBe(esm.SHA224Class);
    expect(esm.SHA224Class.hash('abc')).toBe(nodeHash('sha224', 'abc', 'hex'));
  });

  it('the types declare the public API and import nothing', () => {
    const dts = fresh.dts;
    expect(dts).not.toMatch(/^\s*import\b|from '/m);
    for (const name of ['export type Message', 'export type Encoding', 'export declare class SHA224Class', 'export declare const sha224', 'export declare const SHA224']) {
      expect(dts).toContain(name);
    }
  });
});
