import { appPrototypesOf } from '@pfs/http';
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The ceilings: a bare Express endpoint, as small as a JSON answer can be (`/ping`), and replays
 * (`/replay/<name>`): the bench PUTs the exact status, headers and body the API answered for a scenario, and
 * `GET /replay/<name>` sends those same bytes and headers with no work, so each API row has a ceiling that
 * differs from it only in the work the API does. Prints its URL on stdout.
 *
 * BARE_APP_PROTOTYPES=1: the server creates its requests and responses with the app's prototypes, as the
 * API's server does (libs/http app-prototypes.ts), so Express's per-request prototype switch costs it nothing
 * either: the tuned ceiling the `me` suite prints beside the plain one.
 */
interface Replay {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const replays = new Map<string, Replay>();
const app = express();
app.get('/ping', (_req, res) => {
  res.json({ ok: true });
});
app.put('/replay/:name', express.json({ limit: '64mb' }), (req, res) => {
  const { status, headers, body } = req.body as {
    status: number;
    headers: Record<string, string>;
    body: string;
  };
  replays.set(String(req.params.name), { status, headers, body: Buffer.from(body, 'base64') });
  res.status(204).end();
});
app.get('/replay/:name', (req, res) => {
  const replay = replays.get(String(req.params.name));
  if (!replay) {
    res.status(404).end();
    return;
  }
  res.status(replay.status).set(replay.headers).end(replay.body);
});
const serverOptions = process.env.BARE_APP_PROTOTYPES === '1' ? appPrototypesOf(app) : {};
const server = createServer(serverOptions, app).listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
