/**
 * The edge's settings are validated before anything starts, each refusal naming the setting.
 */
import { describe, expect, it } from 'vitest';
import { edgeOptions } from '../../api/server.js';
import { loadConfig } from '../../shared/config.js';

describe('edge settings', () => {
  it('defaults', () => {
    expect(edgeOptions(loadConfig({}))).toEqual({
      headersTimeoutMs: 15_000,
      bodyIdleTimeoutMs: 30_000,
      requestTimeoutMs: 300_000,
      keepAliveTimeoutMs: 5_000,
      wsHandshakeTimeoutMs: 10_000,
      maxConnections: 4096,
    });
    const config = loadConfig({});
    expect(config.UPLOAD_DRAIN_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(config.CLIENT_KEY_MAX_UPLOAD_BYTES).toBe(1024 * 1024);
    expect(config.PUBLIC_URL).toBeUndefined();
  });

  it.each([
    ['HEADERS_TIMEOUT_MS', '50'],
    ['BODY_IDLE_TIMEOUT_MS', 'soon'],
    ['REQUEST_TIMEOUT_MS', '-1'],
    ['KEEP_ALIVE_TIMEOUT_MS', '1.5'],
    ['WS_HANDSHAKE_TIMEOUT_MS', '0'],
    ['MAX_CONNECTIONS', '0'],
    ['UPLOAD_DRAIN_MAX_BYTES', '-5'],
    ['CLIENT_KEY_MAX_UPLOAD_BYTES', 'lots'],
  ])('%s=%s is refused with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });

  it('BODY_IDLE_TIMEOUT_MS may not exceed REQUEST_TIMEOUT_MS', () => {
    expect(() => loadConfig({ BODY_IDLE_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      'Invalid configuration: BODY_IDLE_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS',
    );
  });

  it.each([
    'api.example.com',
    'ftp://api.example.com',
    'https://api.example.com/v2',
    'https://u:p@api.example.com',
    'https://api.example.com/?x=1',
  ])('PUBLIC_URL=%s is refused with a message naming it', (value) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(/^Invalid configuration: PUBLIC_URL: must be an absolute http\(s\) URL/);
  });

  it('PUBLIC_URL is kept as its origin', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://API.example.com:443/' }).PUBLIC_URL).toBe('https://api.example.com');
    expect(loadConfig({ PUBLIC_URL: 'https://[::1]:8443' }).PUBLIC_URL).toBe('https://[::1]:8443');
  });
});
