import { serializeError } from '@pfs/errors';
import { asInputError, asUnavailable, requestLogger } from '@pfs/http';
import type { Logger } from '@pfs/logger';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { errorPage } from './pages';

/** The endpoints programs call: they keep the JSON error model whatever the Accept header says. */
const MACHINE_PATHS = /^\/(oauth2\/(token|revoke|register)|\.well-known\/|health|metrics)/;

/** A person's browser asking for a page: it prefers HTML to JSON, on a route meant for people. */
function wantsPage(req: Request): boolean {
  return !MACHINE_PATHS.test(req.path) && req.accepts(['json', 'html']) === 'html';
}

const TITLES: Record<number, string> = {
  400: 'Something is wrong with this request',
  403: 'Not allowed',
  404: 'Page not found',
  405: 'Not allowed here',
  413: 'Too much data',
  429: 'Too many requests',
  503: 'Temporarily unavailable',
};

/** Unknown routes answer a browser with a 404 page (programs get the JSON error of the next step). */
export const htmlNotFound: RequestHandler = (req, res, next) => {
  if (!wantsPage(req)) return next();
  res
    .status(404)
    .type('html')
    .send(errorPage(TITLES[404], 'There is no page at this address. Go to your account: /account.'));
};

/**
 * Failures on the pages answer a browser with an HTML page of the same status and headers (Retry-After on
 * 503 and 429) instead of the raw JSON error; server faults are logged as the JSON error step logs them.
 */
export function htmlErrorPages(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent || !wantsPage(req)) return next(error);
    const serialized = serializeError(
      asInputError(asUnavailable(error)),
      req.id === undefined ? undefined : String(req.id),
    );
    if (serialized.isServerFault)
      requestLogger(logger, req).error({ err: error, requestId: req.id }, 'request failed');
    const title = TITLES[serialized.status] ?? 'Something went wrong';
    const message =
      serialized.status >= 500
        ? 'The server could not complete this request. Please try again in a moment.'
        : String(
            (serialized.body as { description?: unknown }).description ??
              'The request could not be completed.',
          );
    res.status(serialized.status).set(serialized.headers).type('html').send(errorPage(title, message));
  };
}
