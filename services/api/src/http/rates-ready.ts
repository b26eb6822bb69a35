import type { ApiHandler } from './api-operation';
import type { NextFunction, Request, Response } from 'express';

/**
 * Middleware for routes that convert: waits until the rates are in memory (immediate after the first load).
 * `rates` is the API's RateBook.
 */
export function ratesReady(rates: { ready(): Promise<void> }) {
  return async (_req: Request, _res: Response, next: NextFunction): Promise<void> => {
    await rates.ready();
    next();
  };
}

/** A handler of an operation that converts: it runs once the rates are in memory (at once after the first load). */
export function withRates(rates: { ready(): Promise<void> }, handler: ApiHandler): ApiHandler {
  return async (ctx, req, res) => {
    await rates.ready();
    return handler(ctx, req, res);
  };
}
