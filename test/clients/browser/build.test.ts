/**
 * The committed artifacts in api/clients/browser/dist: fresh (equal to a rebuild), within the size
 * budget, self-contained, precompressed copies that decode to exactly the file, and working where
 * only ECMAScript and web-platform globals exist.
 */
import { hash as nodeHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSdk, DIST_DIR, DIST_FILES, GZIP_BUDGET_BYTES, SERVED_FILES, sizes, type Built } from '../../../api/clients/browser/build.js';
import type * as Sdk from '../../../api/clients/browser/src/sha224.js';

const read = (file: string): string => readFileSync(path.join(DIST_DIR, file), 'utf8');
const ABC = nodeHash('sha224', 'abc', 'hex');

describe('api/clients/browser/dist', () => {
  let fresh: Built;
  beforeAll(async () => {
    fresh = await buildSdk();
  });

  it('equals a fresh build (run `npm run build:sdk` after changing api/clients/browser)', () => {
    for (const [key, file] of Object.entries(DIST_FILES)) expect(read(file), file).toBe(fresh[key as keyof Built]);
  });

  it('the gzip and brotli copies of each served file decode to exactly that file', () => {
    for (const file of SERVED_FILES) {
      const body = readFileSync(path.join(DIST_DIR, file));
      const gz = readFileSync(path.join(DIST_DIR, `${file}.gz`));
      const br = readFileSync(path.join(DIST_DIR, `${file}.br`));
      expect(gunzipSync(gz).equals(body), `${file}.gz`).toBe(true);
      expect(brotliDecompressSync(br).equals(body), `${file}.br`).toBe(true);
      expect(br.length).toBeLessThan(gz.length);
      expect(gz.length).toBeLessThan(body.length / 3);
    }
  });

  it(`the minified IIFE is at most ${GZIP_BUDGET_BYTES} bytes gzipped`, () => {
    const { gzip } = sizes(fresh.iife);
    expect(gzip).toBeGreaterThan(1000);
    expect(gzip).toBeLessThanOrEqual(GZIP_BUDGET_BYTES);
  });

  it('imports nothing and names no Node built-in', () => {
    for (const code of [fresh.esm, fresh.esmMin, fresh.iife]) {
      expect(code).not.toMatch(/\bimport\s*[({'"a-zA-Z*]|\brequire\s*\(|node:|\bprocess\b|\bBuffer\b/);
    }
  });

  it('the IIFE defines the globals SHA224 and SHA224Class in a bare ECMAScript realm with only TextEncoder and btoa added', () => {
    const sandbox = vm.createContext({ TextEncoder, btoa });
    vm.runInContext(read(DIST_FILES.iife), sandbox);
    const run = (src: string): unknown => vm.runInContext(src, sandbox);
    expect(run('Object.keys(globalThis).sort()')).toEqual(['SHA224', 'SHA224Class', 'TextEncoder', 'btoa']);
    expect(run('typeof SHA224')).toBe('function');
    expect(run('Object.keys(SHA224).sort()')).toEqual(['SHA224Class', 'hash', 'hmac', 'verify']);
    expect(run(`SHA224('abc')`)).toBe(ABC);
    expect(run(`SHA224.hash('abc')`)).toBe(ABC);
    expect(run(`SHA224Class.hash('abc')`)).toBe(ABC);
    expect(run(`SHA224.SHA224Class === SHA224Class`)).toBe(true);
    expect(run(`SHA224.verify('abc', '${ABC.toUpperCase()}')`)).toBe(true);
    expect(run(`new SHA224Class().update('a').update(new Uint8Array([98, 99])).digest('base64')`)).toBe(
      nodeHash('sha224', 'abc', 'base64'),
    );
    expect(run(`const h = new SHA224Class().update('a'); const c = h.clone(); h.destroy(); c.update('bc').digest()`)).toBe(ABC);
    expect(run(`SHA224.hmac.create('key').update('mess').update('age').digest() === SHA224.hmac('key', 'message')`)).toBe(true);
    // Bytes from this realm are accepted in that one (ArrayBuffer.isView and tags, not instanceof).
    expect((run(`SHA224`) as (m: Uint8Array) => string)(new Uint8Array([97, 98, 99]))).toBe(ABC);
    expect((run(`SHA224.hash`) as (m: ArrayBuffer) => string)(new Uint8Array([97, 98, 99]).buffer)).toBe(ABC);
  });

  it('both ESM files export the same API, agreeing with the source', async () => {
    for (const file of [DIST_FILES.esm, DIST_FILES.esmMin]) {
      const esm = (await import(pathToFileURL(path.join(DIST_DIR, file)).href)) as typeof Sdk;
      expect(Object.keys(esm).sort(), file).toEqual(['HmacSHA224', 'SHA224', 'SHA224Class', 'default', 'sha224']);
      const m = new Uint8Array(1000).map((_, i) => i * 7);
      expect(esm.SHA224(m)).toBe(nodeHash('sha224', m, 'hex'));
      expect(esm.default).toBe(esm.SHA224);
      expect(esm.sha224).toBe(esm.SHA224);
      expect(esm.SHA224.SHA224Class).toBe(esm.SHA224Class);
      expect(esm.SHA224Class.hash('abc')).toBe(ABC);
      expect(new esm.HmacSHA224('k').update('m').digest()).toBe(esm.SHA224.hmac('k', 'm'));
    }
  });

  it('the module types declare the public API and import nothing; the global types reuse them', () => {
    const { dts, globalDts } = fresh;
    expect(dts).not.toMatch(/^\s*import\b|from '/m);
    expect(dts).not.toContain('moduleBuffers'); // @internal
    for (const name of [
      'export type Message',
      'export type Encoding',
      'export declare class SHA224Class',
      'export declare class HmacSHA224',
      'export interface SHA224Function extends HashFunction',
      'export declare const SHA224: SHA224Function',
      'export default SHA224',
    ]) {
      expect(dts).toContain(name);
    }
    expect(globalDts).toContain(`import type * as Lib from './${DIST_FILES.esm}';`);
    expect(globalDts).toContain('var SHA224: Lib.SHA224Function;');
    expect(globalDts).toContain('var SHA224Class: typeof Lib.SHA224Class;');
  });
});
