import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs `steps` as one Express layer: each step's `next()` calls the following step directly, the last one
 * calls the layer's `next`; an error (passed to `next`, thrown, or a rejected promise) goes to the layer's
 * `next(error)` as Express would route it. The steps are the same middlewares Express would run one layer
 * at a time, in the same order: what is saved is the app router's per-layer walk (path match, prefix
 * trimming, params, promise check) on every request, a measurable share of `GET /me` (docs/bench.md).
 */
export function oneLayer(...steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) {
        next(error);
        return;
      }
      const handler = steps[index];
      index += 1;
      if (!handler) {
        next();
        return;
      }
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
