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

/** Writes the library's response (status, headers, JSON body) to Express. */
export function sendOAuthResponse(
  res: Response,
  response: OAuthResponse & { status?: number; body?: unknown },
) {
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value as string);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.status(response.status ?? 200).json(response.body ?? {});
}
