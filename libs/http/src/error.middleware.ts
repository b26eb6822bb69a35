import 'pino-http';
import { AppError, serializeError } from '@pfs/errors';
import type { Logger } from '@pfs/logger';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { asInputError } from './input-guard';
import { requestLogger } from './request-trace';
import { asUnavailable } from './store-unavailable';

/** The last middleware: the one place errors are logged and turned into the JSON error body. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const classified = asInputError(asUnavailable(error));
    const serialized = serializeError(classified, req.id === undefined ? undefined : String(req.id));
    if (serialized.isServerFault) {
      requestLogger(logger, req).error({ err: error, requestId: req.id }, 'request failed');
    }
    res.status(serialized.status).set(serialized.headers).json(serialized.body);
  };
}

/** Unknown routes get the same error body as every other failure. */
export const routeNotFoundMiddleware: RequestHandler = (req, _res, next) => {
  next(new AppError('ROUTE_NOT_FOUND', { description: `No route for ${req.method} ${req.path}.` }));
};
