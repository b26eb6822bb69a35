import cors from 'cors';
import type { RequestHandler } from 'express';

/** What browser apps send: tokens, JSON bodies, conditional and idempotent writes, the two-factor code. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'If-None-Match',
  'If-Match',
  'Idempotency-Key',
  'X-Service-OTP',
];

/**
 * What browser apps must be able to read: paging and sync headers, the rate limit, where a created object
 * is, and the token endpoint's challenges (two-factor asks through X-Service-OTP).
 */
const EXPOSED_HEADERS = [
  'Link',
  'X-Total-Count',
  'Service-Modified',
  'ETag',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'Retry-After',
  'Location',
  'WWW-Authenticate',
  'X-Service-OTP',
];

/**
 * CORS for browser apps on the origins of CORS_ORIGINS (exact matches; none by default). Mounted before
 * authentication and rate limiting, so a preflight (OPTIONS) is answered 204 without a token and without
 * spending the budget. A request from another origin gets no Access-Control-Allow-Origin, so the browser
 * withholds the answer from its script. No credentials mode: the API takes tokens, never cookies.
 */
export function corsMiddleware(allowedOrigins: readonly string[]): RequestHandler {
  const handler = cors({
    origin: [...allowedOrigins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  // Browsers send Origin on every cross-origin call and preflight; without it (curl, servers, same-origin
  // pages) this is no CORS request, and an OPTIONS keeps the answer it had.
  return (req, res, next) => (req.headers.origin === undefined ? next() : handler(req, res, next));
}
