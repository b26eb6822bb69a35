import { parseTraceparent, startSpan } from '@pfs/logger';
import type { NextFunction, Request, Response } from 'express';
import { routeTemplateOf } from './metrics/http-metrics';
import { setRequestTrace } from './request-trace';

/**
 * Honours an incoming W3C `traceparent` (a malformed one is ignored and a new trace starts) and puts the
 * request's trace on the request (request-trace.ts): its log lines carry the trace id, and work it queues
 * carries it on.
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, the request is also an exported server span (docs/operations.md).
 */
export function traceMiddleware(req: Request, res: Response, next: NextFunction): void {
  const span = startSpan(req.method, 'server', parseTraceparent(req.headers.traceparent));
  // Unset, the hot path adds no listener.
  if (span.exported)
    res.once('close', () => {
      const route = routeTemplateOf(req);
      span.end({
        name: `${req.method} ${route}`,
        failed: res.statusCode >= 500,
        attributes: {
          'http.request.method': req.method,
          'http.route': route,
          'http.response.status_code': res.statusCode,
        },
      });
    });
  setRequestTrace(req, span.context);
  next();
}
