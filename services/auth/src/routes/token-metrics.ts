import type { Request } from 'express';
import { Counter } from 'prom-client';

const tokenRequests = new Counter({
  name: 'pfs_token_requests_total',
  help: 'Token endpoint requests by grant type and result (granted, or the OAuth error code)',
  labelNames: ['grant_type', 'result'] as const,
});

/** Known values only: a label per arbitrary client-sent string would let any client grow the series set. */
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token', 'password', 'client_credentials']);
const ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'temporarily_unavailable',
  'server_error',
]);

/** One count per token request once its answer is known. */
export function countTokenRequest(req: Request, body: { error?: string } | undefined): void {
  const requested = typeof req.body?.grant_type === 'string' ? req.body.grant_type : '';
  const error = body?.error;
  tokenRequests.inc({
    grant_type: GRANT_TYPES.has(requested) ? requested : 'other',
    result: error === undefined ? 'granted' : ERRORS.has(error) ? error : 'other_error',
  });
}
