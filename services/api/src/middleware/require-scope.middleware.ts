import { AppError } from '@pfs/errors';
import type { NextFunction, Request, Response } from 'express';

/** A `:rw` scope includes the `:r` scope of its area. */
export function hasScope(granted: string[], needed: string): boolean {
  if (granted.includes(needed)) return true;
  return needed.endsWith(':r') && granted.includes(`${needed}w`);
}

/** Refuses with 403 naming the scope needed when the token lacks it. */
export function requireScope(needed: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!req.auth || !hasScope(req.auth.scopes, needed)) {
      throw new AppError('INSUFFICIENT_SCOPE', {
        description: `This request needs the ${needed} scope.`,
        headers: { 'WWW-Authenticate': `Bearer realm="pfs", error="insufficient_scope", scope="${needed}"` },
      });
    }
    next();
  };
}
