/**
 * The shipped bundles inside headless Chromium (Debian's chromium via playwright-core), served
 * from 127.0.0.1: the IIFE as a classic script, the minified ESM (served as /sdk/sha224.mjs) as a
 * module, the IIFE in a web worker.
 * The same NIST vectors, UTF-8 edge cases and HMAC vectors as in Node must come out identical.
 * Chromium missing is a failure, not a skip: CI installs it.
 */
import { createHmac, hash as nodeHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_DIR, DIST_FILES } from '../../../api/clients/browser/build.js';
import type { SHA224 as Api } from '../../../api/clients/browser/src/sha224.js';
import { launchChromium, openPage, serveStatic, type StaticServer } from '../../helpers/chromium.js';
import { loadMonte, loadRfc4231, loadShaVectors, runMonte } from '../../helpers/vectors.js';

type Global = { SHA224: typeof Api; SHA224Class: typeof Api.SHA224Class };

const js = (file: string) => ({ type: 'text/javascript', body: readFileSync(path.join(DIST_DIR, file)) });

const UTF8_CASES = [
  'abc',
  'ÅÄÖ € 日本語',
  '😀 𝄞 \u{10FFFF}',
  'abc\uD83D',
  'a\uD83Db',
  'a\uDE00b',
  '\uDE00\uD83D',
  '\uD83D\uD83D\uDE00',
  '\0\x7f\x80',
  'x'.repeat(20_000) + '😀'.repeat(5000) + '\uD83D',
];

describe('in headless Chromium', () => {
  let server: StaticServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await serveStatic({
      '/': { type: 'text/html', body: '<!doctype html><title>sdk</title><script src="/sdk/sha224.min.js"></script>' },
      '/sdk/sha224.min.js': js(DIST_FILES.iife),
      '/sdk/sha224.mjs': js(DIST_FILES.esmMin),
      '/worker.js': {
        type: 'text/javascript',
        body: `importScripts('/sdk/sha224.min.js'); onmessage = (e) => postMessage(e.data.map((m) => [SHA224.hash(m), SHA224.hash(new TextEncoder().encode(m))]));`,
      },
    });
    browser = await launchChromium();
    page = await openPage(browser, `${server.origin}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('has no WebCrypto SHA-224 (the gap this library fills), and the IIFE defined the globals SHA224 and SHA224Class', async () => {
    const result = await page.evaluate(async () => {
      const webcrypto = await crypto.subtle.digest('SHA-224', new Uint8Array(1)).then(
        () => 'supported',
        (e: Error) => e.name,
      );
      const { SHA224, SHA224Class } = globalThis as unknown as Global;
      return {
        webcrypto,
        type: typeof SHA224,
        keys: Object.keys(SHA224).sort(),
        sameClass: SHA224.SHA224Class === SHA224Class,
        // The operations of docs/api.md "Client-side library" by their names.
        digests: [SHA224('abc'), SHA224.hash('abc'), SHA224Class.hash('abc'), new SHA224Class().update('a').update('bc').digest()],
        verify: [SHA224.verify('abc', SHA224('abc').toUpperCase()), SHA224.verify('abd', SHA224('abc'))],
      };
    });
    const abc = nodeHash('sha224', 'abc', 'hex');
    expect(result).toEqual({
      webcrypto: 'NotSupportedError',
      type: 'function',
      keys: ['SHA224Class', 'hash', 'hmac', 'verify'],
      sameClass: true,
      digests: [abc, abc, abc, abc],
      verify: [true, false],
    });
  });

  it('clone(), destroy() and incremental HMAC', async () => {
    const got = await page.evaluate(() => {
      const { SHA224, SHA224Class } = globalThis as unknown as Global;
      const h = new SHA224Class().update('prefix|');
      const copy = h.clone();
      h.update('one');
      copy.update('two');
      const digests = [h.digest(), copy.digest()];
      const gone = new SHA224Class().update('x');
      gone.destroy();
      let error = 'no error';
      try {
        gone.update('y');
      } catch (e) {
        error = `${(e as Error).name}: ${(e as Error).message}`;
      }
      const mac = SHA224.hmac.create('key').update('mess');
      const macCopy = mac.clone().update('age!');
      return { digests, error, macs: [mac.update('age').digest(), macCopy.digest()] };
    });
    expect(got).toEqual({
      digests: [nodeHash('sha224', 'prefix|one', 'hex'), nodeHash('sha224', 'prefix|two', 'hex')],
      error: 'Error: digest() or destroy() already called',
      macs: [createHmac('sha224', 'key').update('message').digest('hex'), createHmac('sha224', 'key').update('message!').digest('hex')],
    });
  });

  it('NIST ShortMsg and LongMsg vectors, one-shot and in 63-byte updates', async () => {
    const vectors = [...loadShaVectors('SHA224ShortMsg.rsp'), ...loadShaVectors('SHA224LongMsg.rsp')];
    const got = await page.evaluate(
      (messages) => {
        const { SHA224 } = globalThis as unknown as Global;
        return messages.map((hex) => {
          const m = new Uint8Array(hex.length / 2).map((_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
          const h = new SHA224.SHA224Class();
          for (let i = 0; i < m.length; i += 63) h.update(m.subarray(i, i + 63));
          return [SHA224.hash(m), h.digest()];
        });
      },
      vectors.map((v) => v.msg.toString('hex')),
    );
    expect(got).toEqual(vectors.map((v) => [v.md, v.md]));
  });

  it('NIST Monte Carlo: 100 checkpoints', async () => {
    const { seed, checkpoints } = loadMonte();
    const got = await page.evaluate((seedHex) => {
      const { SHA224 } = globalThis as unknown as Global;
      let md: Uint8Array = new Uint8Array(28).map((_, i) => parseInt(seedHex.slice(2 * i, 2 * i + 2), 16));
      const out: string[] = [];
      for (let j = 0; j < 100; j++) {
        let [a, b, c] = [md, md, md];
        for (let i = 0; i < 1000; i++) {
          const m = new Uint8Array(84);
          m.set(a, 0);
          m.set(b, 28);
          m.set(c, 56);
          [a, b, c] = [b, c, SHA224.hash(m, 'bytes')];
        }
        md = c;
        out.push(Array.from(md, (x) => x.toString(16).padStart(2, '0')).join(''));
      }
      return out;
    }, seed.toString('hex'));
    expect(got).toEqual(checkpoints.map((c) => c.md));
    expect(got).toEqual(runMonte(seed, 100, (m) => nodeHash('sha224', m, 'buffer')));
  });

  it('UTF-8 edge cases, one-shot and split into single UTF-16 units, match node:crypto on TextEncoder bytes', async () => {
    const got = await page.evaluate((cases) => {
      const { SHA224 } = globalThis as unknown as Global;
      return cases.map((s) => [
        SHA224.hash(s),
        s
          .split('')
          .reduce((h, u) => h.update(u), new SHA224.SHA224Class())
          .digest(),
      ]);
    }, UTF8_CASES);
    const encoder = new TextEncoder();
    expect(got).toEqual(
      UTF8_CASES.map((s) => [nodeHash('sha224', encoder.encode(s), 'hex'), nodeHash('sha224', encoder.encode(s), 'hex')]),
    );
  });

  it('every length 0..1100 against node:crypto, and base64 and verify', async () => {
    const data = new Uint8Array(1100).map((_, i) => (i * 167 + 13) & 255);
    const got = await page.evaluate((bytes) => {
      const { SHA224 } = globalThis as unknown as Global;
      const m = new Uint8Array(bytes);
      const hexes = Array.from({ length: m.length + 1 }, (_, n) => SHA224.hash(m.subarray(0, n)));
      return { hexes, base64: SHA224.hash(m, 'base64'), verified: SHA224.verify(m, hexes[m.length]!.toUpperCase()) };
    }, Array.from(data));
    expect(got.hexes).toEqual(Array.from({ length: data.length + 1 }, (_, n) => nodeHash('sha224', data.subarray(0, n), 'hex')));
    expect(got.base64).toBe(nodeHash('sha224', data, 'base64'));
    expect(got.verified).toBe(true);
  });

  it('HMAC-SHA-224: RFC 4231 and a string key', async () => {
    const vectors = loadRfc4231();
    const got = await page.evaluate((vs) => {
      const { SHA224 } = globalThis as unknown as Global;
      const bytes = (hex: string) => new Uint8Array(hex.length / 2).map((_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
      return { rfc: vs.map((v) => SHA224.hmac(bytes(v.key_hex), bytes(v.data_hex))), text: SHA224.hmac('kéy', 'méssage 😀') };
    }, vectors);
    expect(got.rfc.map((mac, i) => (vectors[i]!.truncate_bits ? mac.slice(0, vectors[i]!.truncate_bits / 4) : mac))).toEqual(
      vectors.map((v) => v.hmac_sha224_hex.toLowerCase()),
    );
    expect(got.text).toBe(createHmac('sha224', 'kéy').update('méssage 😀').digest('hex'));
  });

  it('rejects wrong-type input with a TypeError naming the argument, and update after digest', async () => {
    const got = await page.evaluate(() => {
      const { SHA224 } = globalThis as unknown as Global;
      const error = (f: () => unknown) => {
        try {
          f();
          return 'no error';
        } catch (e) {
          return `${(e as Error).name}: ${(e as Error).message}`;
        }
      };
      const spent = new SHA224.SHA224Class();
      spent.digest();
      return [error(() => SHA224.hash(null as unknown as string)), error(() => SHA224.hash([1, 300])), error(() => spent.update('x'))];
    });
    expect(got[0]).toMatch(/^TypeError: message must be/);
    expect(got[1]).toBe('TypeError: message[1] must be an integer 0..255');
    expect(got[2]).toBe('Error: digest() or destroy() already called');
  });

  it('the ESM bundle works as a browser module', async () => {
    // A string, because vitest rewrites import() inside functions it compiles.
    const got = await page.evaluate(
      `import('/sdk/sha224.mjs').then((m) => [m.SHA224('abc'), m.default('abc'), m.SHA224Class.hash('abc'), new m.SHA224Class().update('abc').digest(), m.SHA224.hash('abc')])`,
    );
    expect(got).toEqual(Array(5).fill(nodeHash('sha224', 'abc', 'hex')));
  });

  it('the IIFE works in a web worker (importScripts)', async () => {
    const got = await page.evaluate(
      (cases) =>
        new Promise<string[][]>((resolve, reject) => {
          const worker = new Worker('/worker.js');
          worker.onmessage = (e: MessageEvent<string[][]>) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message));
          worker.postMessage(cases);
        }),
      UTF8_CASES,
    );
    const encoder = new TextEncoder();
    expect(got).toEqual(
      UTF8_CASES.map((s) => [nodeHash('sha224', encoder.encode(s), 'hex'), nodeHash('sha224', encoder.encode(s), 'hex')]),
    );
  });
});
