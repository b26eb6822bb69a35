import type { RequestHandler, Response } from 'express';

/**
 * Runs a middleware that only sets response headers (helmet) once at boot against a recorder, and returns a
 * middleware that sets the very same headers, in the same order, from the precomputed list. Helmet's headers
 * depend on its options only, never on the request, so the result is identical; helmet stays the one place
 * that decides them, while the request pays for twelve `setHeader` calls instead of twelve middlewares.
 */
export function recordedHeaders(middleware: RequestHandler): RequestHandler {
  const headers: Array<[string, string | number | readonly string[]]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, value]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let finished = false;
  void middleware({} as never, recorder as unknown as Response, () => {
    finished = true;
  });
  if (!finished) throw new Error('the recorded middleware did not call next synchronously');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
