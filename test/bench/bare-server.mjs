// The bare node:http reference of `npm run bench`: the service's routes with nothing but the work
// itself — no authentication, limits, validation, logging or queue. Plain node, no loader, so its
// CPU time and peak RSS are the runtime's and the work's alone.
//   POST /v2/hash    JSON {data} in, SHA-224 (node:crypto) of its UTF-8 bytes out, same reply shape
//   POST /v2/stream  hashes the body while receiving it (never holds more than a chunk)
//   /v2/ws           WebSocket hash messages ({action, id, data}), ws loaded at the first upgrade
// Prints "bare listening on <url>"; PORT picks the port (0: any).
import { createHash } from 'node:crypto';
import http from 'node:http';

const sha224 = (data) => createHash('sha224').update(data).digest('hex');
const stamp = () => ({ timestamp: new Date().toISOString(), processing_time_ms: 0 });
const hashReply = (data) => ({ success: true, hash: sha224(data), encoding: 'hex', algorithm: 'SHA-224', ...stamp() });

function sendJson(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function hashRoute(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let data;
    try {
      data = JSON.parse(Buffer.concat(chunks).toString('utf8')).data;
    } catch {
      return sendJson(res, 400, { success: false });
    }
    if (typeof data !== 'string') return sendJson(res, 400, { success: false });
    sendJson(res, 200, hashReply(data));
  });
}

function streamRoute(req, res) {
  const hash = createHash('sha224');
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    hash.update(c);
  });
  req.on('end', () =>
    sendJson(res, 200, { success: true, hash: hash.digest('hex'), encoding: 'hex', algorithm: 'SHA-224', size, ...stamp() }),
  );
}

const server = http.createServer((req, res) => {
  req.on('error', () => res.destroy());
  if (req.method === 'POST' && req.url === '/v2/hash') return hashRoute(req, res);
  if (req.method === 'POST' && req.url?.startsWith('/v2/stream')) return streamRoute(req, res);
  sendJson(res, 404, { success: false });
});

let wss;
server.on('upgrade', async (req, socket, head) => {
  if (!req.url?.startsWith('/v2/ws')) return socket.destroy();
  if (!wss) {
    const { WebSocketServer } = await import('ws');
    wss ??= new WebSocketServer({ noServer: true, perMessageDeflate: false });
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('message', (message) => {
      const m = JSON.parse(message.toString('utf8'));
      ws.send(JSON.stringify({ id: m.id, ...hashReply(m.data) }));
    });
  });
});

server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`bare listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
