import { LRUCache } from 'lru-cache';
import { AppError } from '@pfs/errors';
import { rateLimitRefusals, requestTraceOf, setRequestIdentity } from '@pfs/http';
import type { TraceContext } from '@pfs/logger';
import { attachCallerContext } from '@pfs/resource-api';
import { AccessTokenRecord, parseScope } from '@pfs/contracts';
import type { NextFunction, Request, Response } from 'express';
import type { RequestContext } from '../http/request-context';
import type { GateResult, RequestGate } from './request-gate';

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
  onPersonalTokenUse?: (tokenId: string, trace?: TraceContext) => void;
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

/** Parsed once per distinct scope string (a handful per deployment), not per request; never mutated. */
const parsedScopes = new LRUCache<string, readonly string[]>({ max: 1_000 });

function scopesOf(scope: string | undefined): readonly string[] {
  const key = scope ?? '';
  let scopes = parsedScopes.get(key);
  if (!scopes) {
    scopes = Object.freeze(parseScope(scope));
    parsedScopes.set(key, scopes);
  }
  return scopes;
}

export function authenticate(gate: RequestGate, options: AuthenticateOptions = {}) {
  const { onPersonalTokenUse, prefetchProfile, recoverRecord, resourceMetadata } = options;

  const admit = (
    req: Request,
    res: Response,
    next: NextFunction,
    token: string | undefined,
    counted: boolean,
    result: GateResult,
  ): void | Promise<void> => {
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
    if (result.record) return enter(req, res, next, counted, result, result.record);
    // Redis restarted empty: the record comes back from Postgres, if the token is still live.
    return (recoverRecord ? recoverRecord(token) : Promise.resolve(undefined)).then((record) => {
      if (!record) {
        throw unauthenticated(
          'The access token is invalid, expired or revoked.',
          resourceMetadata?.(req),
          'invalid_token',
        );
      }
      enter(req, res, next, counted, result, record);
    });
  };

  const enter = (
    req: Request,
    res: Response,
    next: NextFunction,
    counted: boolean,
    result: GateResult,
    record: AccessTokenRecord,
  ): void => {
    const app = record.client_id ?? 'personal';
    const context: RequestContext = {
      userId: record.sub,
      clientId: record.client_id,
      app,
      scopes: scopesOf(record.scope),
      tokenKind: record.kind,
      tokenId: record.token_id,
      rateLimit: result,
      trace: requestTraceOf(req),
      onNotModified: counted
        ? () => {
            res.setHeader('X-RateLimit-Remaining', String(Math.min(result.limit, result.remaining + 1)));
            gate.refund(result.bucketKey).catch(() => undefined);
          }
        : undefined,
    };
    attachCallerContext(req, context);
    setRequestIdentity(res, context);
    if (record.kind === 'personal' && record.token_id) onPersonalTokenUse?.(record.token_id, context.trace);
    // `extra` is private to the user and the application: handlers open the store's contexts from this
    // context (`deps.store.read(ctx)`), which carries `app`.
    next();
  };

  // Synchronous when the gate answers from what it holds (the usual case): no promise per request. A
  // promise returned (a gate or record read) rejects with the same errors a throw here would give.
  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    const token = extractToken(req.get('authorization'));
    const counted = !isRateLimitStatus(req);
    const checked = gate.check(token, () => req.ip ?? 'unknown', {
      count: counted,
      profile: prefetchProfile?.(req) ?? false,
    });
    if (checked instanceof Promise)
      return checked.then((result) => admit(req, res, next, token, counted, result));
    return admit(req, res, next, token, counted, checked);
  };
}
