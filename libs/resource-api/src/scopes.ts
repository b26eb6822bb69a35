import { AppError } from '@pfs/errors';
import type { NextFunction, Request, Response } from 'express';
import { callerContextOf } from './caller-context';

/**
 * Scopes that other scopes imply. A `:rw` scope implies the `:r` of its area; entries access also brings
 * tags, repeats and export (spec, "Scope types"), so `tags:r` is satisfied by `entries:r`.
 */
const IMPLIED_BY: Record<string, string[]> = {
  tags: ['entries'],
  repeats: ['entries'],
  export: ['entries'],
};

/** True when the granted scopes allow `needed` (`area:r` or `area:rw`). */
export function hasScope(granted: readonly string[], needed: string): boolean {
  const [area, level] = needed.split(':');
  const areas = [area, ...(IMPLIED_BY[area] ?? [])];
  return areas.some((candidate) =>
    level === 'r'
      ? granted.includes(`${candidate}:r`) || granted.includes(`${candidate}:rw`)
      : granted.includes(`${candidate}:${level}`),
  );
}

function insufficientScope(missing: string[]): AppError {
  const list = missing.join(' ');
  return new AppError('INSUFFICIENT_SCOPE', {
    description: `This request needs the ${missing.join(' and ')} scope${missing.length > 1 ? 's' : ''}.`,
    headers: { 'WWW-Authenticate': `Bearer realm="pfs", error="insufficient_scope", scope="${list}"` },
  });
}

/** Refuses with 403 naming the scopes missing unless every one of `needed` is granted. */
export function requireScopes(...needed: string[]) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const granted = callerContextOf(req)?.scopes ?? [];
    const missing = needed.filter((scope) => !hasScope(granted, scope));
    if (missing.length) throw insufficientScope(missing);
    next();
  };
}

/** `requireScope('categories:r')`: the one-scope case. */
export const requireScope = (needed: string) => requireScopes(needed);

/** Reads need `area:r`, writes `area:rw`: picks by HTTP method. */
export function requireAreaScope(area: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const write = !['GET', 'HEAD', 'OPTIONS'].includes(req.method);
    requireScopes(`${area}:${write ? 'rw' : 'r'}`)(req, res, next);
  };
}
