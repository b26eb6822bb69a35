import type { Request } from 'express';
import type { ResponseFormat } from './response-format';

/**
 * What the shared resource behaviour reads of an authenticated request: who calls, with which scopes, in
 * which format to answer. The API's `RequestContext` (services/api/src/http/request-context.ts) extends it
 * with the rest (rate-limit state, token kind); this library declares only what it reads, so it never
 * depends on the service. Set once by the API's authentication step, never through `res.locals`.
 */
export interface CallerContext {
  userId: string;
  /** The OAuth client, absent for personal tokens. */
  clientId?: string;
  scopes: readonly string[];
  /** The format negotiated from Accept (negotiateMediaType); absent on routes that answer before it runs. */
  format?: ResponseFormat;
  /** Called when answering 304: the authentication step gives the rate-limit count back. */
  onNotModified?: () => void;
}

/** A symbol, not a property name: nothing else can read or overwrite it by accident. */
const SLOT = Symbol('pfs.requestContext');
type Carrier = Request & { [SLOT]?: CallerContext };

/** Attaches the context of an authenticated request (the authentication step calls this once). */
export function attachCallerContext(req: Request, context: CallerContext): void {
  (req as Carrier)[SLOT] = context;
}

/** The context when authentication succeeded, else undefined (for the few checks that decide on it). */
export function callerContextOf(req: Request): CallerContext | undefined {
  return (req as Carrier)[SLOT];
}

/** The context of a request behind authentication; a route mounted without it is a programming error. */
export function callerOf(req: Request): CallerContext {
  const context = (req as Carrier)[SLOT];
  if (!context) throw new Error(`${req.method} ${req.path}: route mounted without authentication`);
  return context;
}

/** The authenticated user's id. */
export function userIdOf(req: Request): string {
  return callerOf(req).userId;
}
