// The bare Express 5 reference of `npm run bench`: POST /v2/hash parsed by express.json() and hashed
// with node:crypto, the same reply as bare-server.mjs, nothing else. Prints "bare express listening on <url>".
import { createHash } from 'node:crypto';
import express from 'express';

const app = express();
app.post('/v2/hash', express.json(), (req, res) => {
  const data = req.body?.data;
  if (typeof data !== 'string') return res.status(400).json({ success: false });
  const hash = createHash('sha224').update(data).digest('hex');
  res.json({ success: true, hash, encoding: 'hex', algorithm: 'SHA-224', timestamp: new Date().toISOString(), processing_time_ms: 0 });
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`bare express listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
