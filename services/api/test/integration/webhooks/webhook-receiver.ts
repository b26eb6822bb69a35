import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: its headers and the exact bytes of its body. */
export interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A loopback HTTPS receiver; `answer` picks each request's status (default 200). */
export interface Receiver {
  url: string;
  received: Received[];
  answer: (request: Received, index: number) => number;
  /** A Location header to answer with (a redirect the worker must not follow). */
  location?: string;
  /** Resolves once `count` requests arrived (fails after 20 s: nothing is timed, only bounded). */
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function startReceiver(tls: { key: string; cert: string }): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => 200,
    waitFor: (count) =>
      until(`${count} webhook requests`, async () => receiver.received.length >= count && receiver.received),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      };
      receiver.received.push(request);
      res.statusCode = receiver.answer(request, receiver.received.length - 1);
      if (receiver.location) res.setHeader('location', receiver.location);
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      resolve(receiver);
    }),
  );
}
