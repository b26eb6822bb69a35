import type { RequestHandler } from 'express';

/**
 * Runs a body parser only for a request that has a body by body-parser's own test (type-is `hasBody`: a
 * Transfer-Encoding, or a Content-Length, even `0`). The parser would skip any other request itself, but
 * only after its checks of the request's state (on-finished) and a new `body` property on it, on every
 * `GET`; `req.body` reads `undefined` either way (docs/bench.md, session 8).
 */
export function parseWhenBody(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const { headers } = req;
    if (headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(headers['content-length'])))
      parser(req, res, next);
    else next();
  };
}
