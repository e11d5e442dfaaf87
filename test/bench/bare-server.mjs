// The baseline: a bare Express 5 route that parses the same JSON body and answers a small JSON
// object, with nothing else (no auth, limits, hashing, logging). Ratios are against this.
import express from 'express';

const app = express();
app.post('/bare', express.json(), (req, res) => {
  res.json({ success: true, echo: typeof req.body?.data === 'string' ? req.body.data.length : 0 });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
