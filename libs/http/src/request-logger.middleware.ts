import type { Logger } from '@pfs/logger';
import type { Request, RequestHandler, Response } from 'express';
import { HEALTH_PATHS } from './health.routes';
import { observeHttpRequest } from './metrics/http-metrics';
import { requestIdentityOf } from './request-identity';
import { requestTraceOf } from './request-trace';

/**
 * One JSON line per request, tagged with the request id and, once known, the user and client ids (never a
 * token), and observed in the request histogram (metrics/http-metrics.ts); health probes are neither. The line has the
 * shape pino-http wrote (`req.id/method/url`, `res.statusCode`, `responseTime`), written straight to the
 * logger: pino-http built a child logger and ran its serializers on every request, about a sixth of the
 * CPU of an authenticated `GET /me` (see docs/bench.md).
 * The line goes through a child logger without redaction: its fields are fixed (id, method, path and query,
 * status, time) and none is a redacted path, yet the root logger's wildcard redaction (`*.password`, …)
 * cost about 13 µs a line, five times the rest of the line (docs/bench.md).
 */
const PROBE_PATHS = new Set(HEALTH_PATHS);

export function requestLoggerMiddleware(logger: Logger): RequestHandler {
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    if (PROBE_PATHS.has(req.url)) {
      next();
      return;
    }
    const startedAt = performance.now();
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const elapsedMs = performance.now() - startedAt;
      logRequest(lines, req, res, elapsedMs);
      observeHttpRequest(req, res, elapsedMs);
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}

function logRequest(logger: Logger, req: Request, res: Response, elapsedMs: number): void {
  const identity = requestIdentityOf(res);
  // The trace id first, where the logger's mixin put it while requests ran in an async context.
  const fields = {
    traceId: requestTraceOf(req)?.traceId,
    req: { id: req.id, method: req.method, url: req.originalUrl },
    res: { statusCode: res.statusCode },
    responseTime: Math.round(elapsedMs),
    userId: identity?.userId,
    clientId: identity?.clientId,
  };
  if (!res.writableFinished) logger.warn(fields, 'request aborted');
  else if (res.statusCode >= 500) logger.error(fields, 'request errored');
  else logger.info(fields, 'request completed');
}
