import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchAndHash, type FetchHashOptions } from '../../shared/net/fetch-and-hash.js';
import { expectServiceError, fakeLookup } from './helpers.js';

/**
 * The https path: undici dials TLS through the same guarded connector (tls.connect takes the
 * same `lookup` hook). tls.connect does not publish on `net.client.socket`, so the tripwire of
 * helpers.ts cannot see these sockets; every target here is therefore a loopback address, and
 * the server counts raw TCP connections instead.
 */

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

let server: Server;
let connections = 0;
let port = 0;

beforeAll(async () => {
  server = createServer({ cert: fixture('test-only-cert.pem'), key: fixture('test-only-key.pem') }, (_req, res) => res.end('secret'));
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
});

afterEach(() => {
  connections = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const base: FetchHashOptions = { timeoutMs: 5_000, maxBytes: 1_000 };

describe('https', () => {
  it('refuses loopback by default, before any TCP connection', async () => {
    for (const url of [
      `https://127.0.0.1:${port}/`,
      `https://2130706433:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://localhost:${port}/`,
    ]) {
      const err = await expectServiceError(fetchAndHash(url, base), 'URL_NOT_ALLOWED', 'URL is not allowed');
      expect(err.details).toBe('rule: address:loopback');
    }
    expect(connections).toBe(0);
  });

  it('checks DNS answers on the TLS path too', async () => {
    const lookup = fakeLookup({ 'tls.test': '127.0.0.1' });
    const err = await expectServiceError(fetchAndHash(`https://tls.test:${port}/`, { ...base, lookup }), 'URL_NOT_ALLOWED');
    expect(err.details).toBe('rule: address:loopback');
    expect(lookup.calls).toEqual(['tls.test']);
    expect(connections).toBe(0);
  });

  it('with the allowance, dials 127.0.0.1 and verifies the certificate (self-signed: refused)', async () => {
    const err = await expectServiceError(
      fetchAndHash(`https://127.0.0.1:${port}/`, { ...base, allowLoopback: true }),
      'URL_FETCH_FAILED',
      'Fetching the URL failed',
    );
    expect(err.details).toBe('TLS handshake failed');
    expect(connections).toBe(1);
  });
});
