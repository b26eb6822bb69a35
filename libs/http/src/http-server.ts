import type { RequestListener, Server, ServerOptions, ServerResponse } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { appPrototypesOf } from './app-prototypes';
import { DEFAULT_HTTP_TIMEOUTS, guardBodyIdle, HttpTimeouts } from './request-timeouts';

export interface StartHttpServerOptions {
  port: number;
  host?: string;
  /** Serve TLS directly when both files are given (otherwise a proxy terminates it). */
  tls?: { certFile: string; keyFile: string };
  /** How long a client may take to send a request (defaults: DEFAULT_HTTP_TIMEOUTS). */
  timeouts?: Partial<HttpTimeouts>;
}

export interface RunningHttpServer {
  server: Server;
  /** The address it listens on, with the real port when 0 was asked for. */
  url: string;
  /**
   * Stops accepting, closes idle keep-alive sockets at once, lets in-flight requests finish (each socket
   * closing as its request ends, up to `graceMs`), then closes every socket left.
   */
  stop(graceMs?: number): Promise<void>;
}

export async function startHttpServer(
  handler: RequestListener,
  options: StartHttpServerOptions,
): Promise<RunningHttpServer> {
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const guarded: RequestListener = (req, res) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // While draining, a keep-alive socket whose last request just finished is closed now, not after
      // keepAliveTimeout (the server's close waits for every socket).
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
    if (draining) res.setHeader('Connection', 'close');
    guardBodyIdle(req, res, timeouts.bodyIdleTimeoutMs);
    handler(req, res);
  };
  const serverOptions: ServerOptions = {
    // An Express app's requests and responses are created with its prototypes (app-prototypes.ts).
    ...appPrototypesOf(handler),
    requestTimeout: timeouts.requestTimeoutMs,
    // Node refuses a headers timeout above the request timeout.
    headersTimeout: Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs || Infinity),
    // Node checks both timeouts on this interval (default 30 s, which would stretch short ones).
    connectionsCheckingInterval: Math.max(
      100,
      Math.min(1_000, timeouts.headersTimeoutMs / 2, timeouts.requestTimeoutMs / 2 || Infinity),
    ),
  };
  const server = options.tls
    ? createHttpsServer(
        {
          ...serverOptions,
          cert: readFileSync(options.tls.certFile),
          key: readFileSync(options.tls.keyFile),
        },
        guarded,
      )
    : createHttpServer(serverOptions, guarded);
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
    stop: (graceMs = 10_000) => {
      draining = true;
      // A response not yet started tells its client this connection ends with it.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      return stopServer(server, graceMs);
    },
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
