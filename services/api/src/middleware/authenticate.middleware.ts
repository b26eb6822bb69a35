import { AppError } from '@pfs/errors';
import { rateLimitRefusals, setRequestIdentity } from '@pfs/http';
import { attachCallerContext } from '@pfs/resource-api';
import { AccessTokenRecord, parseScope } from '@pfs/contracts';
import type { NextFunction, Request, Response } from 'express';
import type { RequestContext } from '../http/request-context';
import type { RequestGate } from './request-gate';

const CHALLENGE = 'Bearer realm="pfs"';

function unauthenticated(
  description: string,
  resourceMetadata: string | undefined,
  error?: string,
): AppError {
  // RFC 9728 §5.1: the challenge points at the protected resource metadata (how MCP clients discover auth).
  const base = resourceMetadata ? `${CHALLENGE}, resource_metadata="${resourceMetadata}"` : CHALLENGE;
  const challenge = error ? `${base}, error="${error}"` : base;
  return new AppError('UNAUTHENTICATED', {
    description,
    headers: { 'WWW-Authenticate': `${challenge}, Basic realm="pfs"` },
  });
}

/** Reads the token from `Authorization: Bearer …`, or HTTP Basic with the token as user name (personal tokens). */
export function extractToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(' ', 2);
  if (!value) return undefined;
  if (scheme.toLowerCase() === 'bearer') return value.trim() || undefined;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    return (separator === -1 ? decoded : decoded.slice(0, separator)) || undefined;
  }
  return undefined;
}

/** The status endpoint reads the limit without counting (spec: it "is itself not rate limited"). */
const isRateLimitStatus = (req: Request) => req.method === 'GET' && req.path === '/rate-limit';

/**
 * Authenticates against the introspection record the auth service wrote to Redis and applies the rate
 * limit, in one Redis round trip (RequestGate), never a call to the auth service. Every response gets
 * X-RateLimit-Limit/Remaining; a 304 gives its request back.
 */
export interface AuthenticateOptions {
  onPersonalTokenUse?: (tokenId: string) => void;
  /**
   * Requests whose handler serves the user's cached `/me` representation: the gate reads it in the same
   * round trip (`requestContext(req).rateLimit.profile`), so the handler needs no second one.
   */
  prefetchProfile?: (req: Request) => boolean;
  /** Asked for a token whose Redis record is missing (Redis restarted empty): the record, from Postgres. */
  recoverRecord?: (token: string) => Promise<AccessTokenRecord | undefined>;
  /** The protected resource metadata URL (RFC 9728) a 401's challenge names for this request. */
  resourceMetadata?: (req: Request) => string;
}

export function authenticate(gate: RequestGate, options: AuthenticateOptions = {}) {
  const { onPersonalTokenUse, prefetchProfile, recoverRecord, resourceMetadata } = options;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = extractToken(req.get('authorization'));
    const counted = !isRateLimitStatus(req);
    const result = await gate.check(token, req.ip ?? 'unknown', {
      count: counted,
      profile: prefetchProfile?.(req) ?? false,
    });
    res.setHeader('X-RateLimit-Limit', String(result.limit));
    res.setHeader('X-RateLimit-Remaining', String(result.remaining));
    if (!result.allowed) {
      rateLimitRefusals.inc({ limit: 'api' });
      throw new AppError('RATE_LIMITED', {
        description: `Rate limit of ${result.limit} requests per ${gate.options.windowSeconds} s reached; retry after ${result.retryAfterSeconds} s.`,
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      });
    }
    if (!token) {
      throw unauthenticated(
        'Authentication is required: send Authorization: Bearer <token>.',
        resourceMetadata?.(req),
      );
    }
    const record = result.record ?? (await recoverRecord?.(token));
    if (!record) {
      throw unauthenticated(
        'The access token is invalid, expired or revoked.',
        resourceMetadata?.(req),
        'invalid_token',
      );
    }
    const app = record.client_id ?? 'personal';
    const context: RequestContext = {
      userId: record.sub,
      clientId: record.client_id,
      app,
      scopes: parseScope(record.scope),
      tokenKind: record.kind,
      tokenId: record.token_id,
      rateLimit: result,
      onNotModified: counted
        ? () => {
            res.setHeader('X-RateLimit-Remaining', String(Math.min(result.limit, result.remaining + 1)));
            gate.refund(result.bucketKey).catch(() => undefined);
          }
        : undefined,
    };
    attachCallerContext(req, context);
    setRequestIdentity(res, context);
    if (record.kind === 'personal' && record.token_id) onPersonalTokenUse?.(record.token_id);
    // `extra` is private to the user and the application: handlers open the store's contexts from this
    // context (`deps.store.read(ctx)`), which carries `app`.
    next();
  };
}
