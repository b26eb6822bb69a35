import express from 'express';
import type { AddressInfo } from 'node:net';

/** The baseline: a bare Express endpoint, as small as a JSON answer can be. Prints its URL on stdout. */
const app = express();
app.get('/ping', (_req, res) => {
  res.json({ ok: true });
});
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
