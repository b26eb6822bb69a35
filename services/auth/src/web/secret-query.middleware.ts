import type { RequestHandler, Response } from 'express';

/** Query parameters that carry credentials: older clients send the token to revoke in the URL. */
const SECRET_PARAMETERS = ['token', 'access_token', 'refresh_token', 'client_secret', 'code'];

/** A symbol slot on the response, typed through `readSecretQuery` (no untyped `res.locals` key). */
const SECRET_QUERY = Symbol('pfs.secretQuery');
type Carrier = Response & { [SECRET_QUERY]?: Record<string, string | string[]> };

/**
 * Request lines are logged, so credentials sent in the query leave the URL before the request logger sees
 * it. Handlers that accept them read them with `readSecretQuery`.
 */
export const secretQueryMiddleware: RequestHandler = (req, res, next) => {
  const start = req.url.indexOf('?');
  if (start < 0) return next();
  const params = new URLSearchParams(req.url.slice(start + 1));
  const secrets: Record<string, string | string[]> = {};
  for (const name of SECRET_PARAMETERS) {
    const values = params.getAll(name);
    if (!values.length) continue;
    secrets[name] = values.length === 1 ? values[0] : values;
    params.delete(name);
  }
  if (Object.keys(secrets).length) {
    (res as Carrier)[SECRET_QUERY] = secrets;
    const rest = params.toString();
    req.url = req.url.slice(0, start) + (rest ? `?${rest}` : '');
    // The logger prints originalUrl (set by Express before any middleware), so it changes too.
    req.originalUrl = req.url;
  }
  next();
};

/** The credentials the request carried in its query (taken out by `secretQueryMiddleware`). */
export function readSecretQuery(res: Response): Record<string, unknown> {
  return (res as Carrier)[SECRET_QUERY] ?? {};
}
