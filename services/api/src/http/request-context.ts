import type { TraceContext } from '@pfs/logger';
import { type CallerContext, callerContextOf, callerOf } from '@pfs/resource-api';
import type { Request } from 'express';
import type { GateResult } from '../middleware/request-gate';

/**
 * Everything the API knows about an authenticated request, typed, in one place: who calls (user, client,
 * application, scopes, token), the format negotiated from Accept, and the rate-limit state the gate
 * returned (with the cached `/me` it read in the same round trip). The authentication step builds it once;
 * handlers read it through `requestContext(req)`. The shared resource behaviour (@pfs/resource-api) reads
 * the `CallerContext` part of the same object.
 */
export interface RequestContext extends CallerContext {
  /** The application `extra` is private to: the OAuth client id, or `personal` for personal tokens. */
  app: string;
  tokenKind: 'access' | 'personal';
  /** Personal token id, for last-used bookkeeping. */
  tokenId?: string;
  /** What the gate answered: limit, remaining, the bucket to refund, the prefetched profile. */
  rateLimit: GateResult;
  /**
   * The request's trace (traceMiddleware): a use case queues its jobs in it. Carried here, not in async
   * context, so the API never turns on Node 20's async hooks (ambient-trace.ts in @pfs/logger).
   */
  trace?: TraceContext;
}

/**
 * The context of a request behind authentication. Throws a programming error (500, never a client error)
 * when the route was mounted without the authentication step.
 */
export function requestContext(req: Request): RequestContext {
  // Only the API's authentication step attaches a context, and it always attaches a RequestContext.
  return callerOf(req) as RequestContext;
}

/** The context when the request is authenticated, else undefined. */
export function optionalRequestContext(req: Request): RequestContext | undefined {
  return callerContextOf(req) as RequestContext | undefined;
}
