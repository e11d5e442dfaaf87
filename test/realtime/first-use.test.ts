/**
 * What an API node builds on first use rather than at start (docs/decisions.md "Cold start"),
 * each reached first on a freshly started process, the dist/ bundle `npm start` runs: socket.io by
 * long-polling and then upgraded, socket.io and /v2/ws by concurrent upgrades, the OAuth metadata.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { SHA224_ABC as ABC } from '../helpers/digests.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { connectSocketIo, emitWithAck, WsClient, wsUrl } from './clients.js';

const started: SpawnedProcess[] = [];

/** A fresh embedded process: its URL and the API key it bootstraps. */
async function freshNode(): Promise<{ url: string; key: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-first-use-'));
  const proc = spawnEntry('embedded', { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
  started.push(proc);
  const [, url] = await proc.waitFor(/listening on (http:\/\/[\d.:]+)/);
  const [, key] = await proc.waitFor(/API key: (\S+)/);
  return { url: url!, key: key! };
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((proc) => proc.stop()));
});

describe('parts built on their first use', () => {
  it('socket.io: the first request is a long-polling handshake, the connection then upgrades and hashes', async () => {
    const { url, key } = await freshNode();
    const socket: Socket = io(`${url}/v2`, {
      path: '/socket.io',
      transports: ['polling', 'websocket'],
      auth: { api_key: key },
      reconnection: false,
      forceNew: true,
      timeout: 10_000,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      expect(await emitWithAck(socket, 'hash', { id: 'p1', data: 'abc' })).toMatchObject({ id: 'p1', success: true, hash: ABC });
      await waitFor(() => socket.io.engine.transport.name === 'websocket' || undefined, { what: 'the upgrade to WebSocket' });
      expect(await emitWithAck(socket, 'hash', { id: 'p2', data: 'abc' })).toMatchObject({ id: 'p2', success: true, hash: ABC });
    } finally {
      socket.close();
    }
  });

  it('socket.io and /v2/ws: concurrent first upgrades are both served', async () => {
    const { url, key } = await freshNode();
    const [ws, socket] = await Promise.all([WsClient.open(wsUrl(url, key)), connectSocketIo(url, { api_key: key })]);
    try {
      expect(await ws.request({ action: 'hash', id: 'w1', data: 'abc' })).toMatchObject({ id: 'w1', success: true, hash: ABC });
      expect(await emitWithAck(socket, 'hash', { id: 's1', data: 'abc' })).toMatchObject({ id: 's1', success: true, hash: ABC });
    } finally {
      socket.close();
      await ws.close();
    }
  });

  it('OAuth: the metadata (RFC 8414) answers its first request', async () => {
    const { url } = await freshNode();
    const res = await fetch(`${url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ issuer: url, token_endpoint: `${url}/oauth/token` });
  });
});
