import type { Logger } from '@pfs/logger';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';

/** One JSON line per request, tagged with the request id; health probes are not logged. */
export function requestLoggerMiddleware(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req) => req.id ?? 'unknown',
    autoLogging: { ignore: (req) => req.url === '/health' },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}
