import { childTraceContext, parseTraceparent, runWithTrace } from '@pfs/logger';
import type { NextFunction, Request, Response } from 'express';

/**
 * Honours an incoming W3C `traceparent` (a malformed one is ignored and a new trace starts) and runs the
 * rest of the request in that trace: its log lines carry the trace id, and work it queues carries it on.
 */
export function traceMiddleware(req: Request, _res: Response, next: NextFunction): void {
  runWithTrace(childTraceContext(parseTraceparent(req.headers.traceparent)), next);
}
