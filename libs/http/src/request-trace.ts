import { type Logger, type TraceContext, tracedLogger } from '@pfs/logger';
import type { Request } from 'express';

/**
 * The request's trace, carried on the request itself (set by traceMiddleware), not in async context: an
 * AsyncLocalStorage would turn on Node 20's async hooks for every promise of every request (ambient-trace.ts
 * in @pfs/logger). Code that writes a line about the request or queues work for it reads it from here, and
 * hands it on explicitly (a use case gets the logger and the trace from its handler).
 */
const TRACE = Symbol('pfs.requestTrace');
type Carrier = Request & { [TRACE]?: TraceContext };

export function setRequestTrace(req: Request, trace: TraceContext): void {
  (req as Carrier)[TRACE] = trace;
}

/** The trace the request runs in; undefined only where traceMiddleware did not run. */
export function requestTraceOf(req: Request): TraceContext | undefined {
  return (req as Carrier)[TRACE];
}

/** `logger` for lines about this request: each names the request's trace id. Call it where a line is written. */
export function requestLogger(logger: Logger, req: Request): Logger {
  return tracedLogger(logger, requestTraceOf(req));
}
