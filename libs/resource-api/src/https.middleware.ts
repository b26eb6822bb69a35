import { AppError } from '@pfs/errors';
import type { NextFunction, Request, Response } from 'express';

export interface HttpsOptions {
  /** Refuse plain HTTP (the production default). */
  required: boolean;
  /** Paths served over plain HTTP anyway (health probes from inside the cluster). */
  exemptPaths?: string[];
  hstsMaxAgeSeconds?: number;
}

/**
 * With REQUIRE_HTTPS, a plain-HTTP request is refused with a clear 403 (never redirected: a redirect would
 * have sent the token in clear already). `req.secure` is true for TLS served here or, behind a trusted
 * proxy (Express `trust proxy`), when X-Forwarded-Proto says https. HSTS is sent on secure responses.
 */
export function httpsMiddleware(options: HttpsOptions) {
  const exempt = new Set(options.exemptPaths ?? []);
  const hsts = `max-age=${options.hstsMaxAgeSeconds ?? 31_536_000}; includeSubDomains`;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.secure) res.setHeader('Strict-Transport-Security', hsts);
    else if (options.required && !exempt.has(req.path)) {
      throw new AppError('HTTPS_REQUIRED', {
        description: 'This API is served over HTTPS only: repeat the request with https://.',
      });
    }
    next();
  };
}
