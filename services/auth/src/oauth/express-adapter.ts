import { Request as OAuthRequest, Response as OAuthResponse } from '@node-oauth/oauth2-server';
import type { Request, Response } from 'express';

/** Keeps Express out of the OAuth logic: the library sees only its own Request and Response. */
export function toOAuthRequest(
  req: Request,
  overrides: { query?: Record<string, unknown>; body?: Record<string, unknown> } = {},
) {
  return new OAuthRequest({
    headers: req.headers as Record<string, string>,
    method: req.method,
    query: (overrides.query ?? req.query) as Record<string, string>,
    body: (overrides.body ?? req.body ?? {}) as Record<string, string>,
  });
}

export function newOAuthResponse() {
  return new OAuthResponse({ headers: {} as Record<string, string> }) as OAuthResponse & {
    status?: number;
    body?: unknown;
  };
}

/**
 * A token endpoint answer (RFC 6749 §5.1-5.2): JSON, `Cache-Control: no-store` and `Pragma: no-cache`, written
 * directly rather than by `res.json`, whose `send` hashes every body into an ETag (and answers 304 to a fresh
 * GET): a validator for an answer no cache may keep, to a POST, is of no use to any client (§5.1 asks only for
 * the two headers above). The same bytes and other headers as `res.json` (docs/bench.md, session 7).
 */
export function sendNoStoreJson(res: Response, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Writes the library's response (status, headers, JSON body) to Express. */
export function sendOAuthResponse(
  res: Response,
  response: OAuthResponse & { status?: number; body?: unknown },
) {
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value as string);
  sendNoStoreJson(res, response.status ?? 200, response.body ?? {});
}
