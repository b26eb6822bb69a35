import type { Server } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';

export interface StartHttpServerOptions {
  port: number;
  host?: string;
  /** Serve TLS directly when both files are given (otherwise a proxy terminates it). */
  tls?: { certFile: string; keyFile: string };
}

export interface RunningHttpServer {
  server: Server;
  /** The address it listens on, with the real port when 0 was asked for. */
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes every socket. */
  stop(graceMs?: number): Promise<void>;
}

export async function startHttpServer(
  handler: RequestListener,
  options: StartHttpServerOptions,
): Promise<RunningHttpServer> {
  const server = options.tls
    ? createHttpsServer(
        { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) },
        handler,
      )
    : createHttpServer(handler);
  // Keep-alive sockets would otherwise hold `close()` open until they time out.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const scheme = options.tls ? 'https' : 'http';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `${scheme}://${host}:${address.port}`,
    stop: (graceMs = 10_000) => stopServer(server, graceMs),
  };
}

function stopServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
