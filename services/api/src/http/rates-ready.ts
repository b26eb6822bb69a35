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
