import { ErrorCodes } from '@pfs/errors';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a client may take to send its request (docs/operations.md, "Timeouts"). */
export interface HttpTimeouts {
  /** Until the request's headers are all in. */
  headersTimeoutMs: number;
  /** Until the whole request (headers and body) is in. */
  requestTimeoutMs: number;
  /** The longest pause between two pieces of the body. */
  bodyIdleTimeoutMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  bodyIdleTimeoutMs: 10_000,
};

const TIMEOUT_BODY = JSON.stringify({
  error_id: ErrorCodes.REQUEST_TIMEOUT.id,
  description: 'The request body stopped arriving; the connection is closed.',
});

/**
 * Whether the request has a body to wait for (RFC 9112 6.3: a request without Transfer-Encoding or a
 * non-zero Content-Length has none). Such a request is whole once its headers are: Node marks it `complete`
 * only after the handler's first synchronous part, so an answer given at once (a held `GET /me`) must not
 * be taken for one that left a body unread.
 */
function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Cuts off a request whose body stalls: each piece of the body must arrive within `idleMs` of the last
 * (the socket's inactivity timer, which reads refresh). Node's own requestTimeout bounds the whole request;
 * this frees a stalled client's socket, and whatever the handler holds while it waits, long before that.
 * Once the body is in, the timer is off again: a slow download is not a stalled request.
 */
export function guardBodyIdle(req: IncomingMessage, res: ServerResponse, idleMs: number): void {
  if (req.complete || idleMs <= 0 || !announcesBody(req)) return;
  req.setTimeout(idleMs, () => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    res.writeHead(ErrorCodes.REQUEST_TIMEOUT.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(TIMEOUT_BODY),
      Connection: 'close',
    });
    res.end(TIMEOUT_BODY, () => req.socket.destroy());
  });
  req.once('end', () => req.setTimeout(0));
  // A handler that answers before reading the body (401, 404, 413…) ends the connection with its answer:
  // otherwise Node would keep the socket for keep-alive, re-arming its timer, and wait on the stalled body.
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!req.complete) this.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}
