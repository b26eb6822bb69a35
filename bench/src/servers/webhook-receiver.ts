import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/** One message the receiver accepted: when it arrived (ms since epoch) and its object's id. */
export interface Arrival {
  at: number;
  type: string;
  objectId: string;
}

export interface BenchReceiver {
  url: string;
  /** The certificate to trust (the worker's WEBHOOK_CA_FILE). */
  certificate: string;
  /** Verified first arrivals, by webhook-id (a retried message counts once). */
  arrivals: Map<string, Arrival>;
  /** Messages whose signature did not verify (must stay 0). */
  refused: number;
  /** The webhook's `whsec_…` secret, known once it is registered. */
  secret?: string;
  close(): Promise<void>;
}

/** `v1,<base64>` entries of webhook-signature checked against the HMAC of `<id>.<timestamp>.<body>`. */
function verifies(secret: string, headers: Record<string, string | undefined>, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest();
  return (headers['webhook-signature'] ?? '').split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * A loopback HTTPS receiver for the webhooks bench, in the bench process (it only reads a small body and
 * computes one HMAC per message, far below what the worker does per attempt). Its certificate is generated
 * here; every message's signature is verified as a client would (Standard Webhooks), and answered 204.
 */
export async function startBenchReceiver(): Promise<BenchReceiver> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const receiver: BenchReceiver = {
    url: '',
    certificate: pems.cert,
    arrivals: new Map(),
    refused: 0,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString();
      const headers = req.headers as Record<string, string | undefined>;
      if (!receiver.secret || !verifies(receiver.secret, headers, body)) {
        receiver.refused += 1;
        res.statusCode = 400;
        return res.end();
      }
      const id = String(headers['webhook-id']);
      if (!receiver.arrivals.has(id)) {
        const message = JSON.parse(body) as { type: string; data: { id: string } };
        receiver.arrivals.set(id, { at, type: message.type, objectId: String(message.data.id) });
      }
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
