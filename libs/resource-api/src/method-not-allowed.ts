import { AppError } from '@pfs/errors';
import type { NextFunction, Request, Response } from 'express';
import type { HyperLink } from './resource-schema';

interface PathMethods {
  pattern: RegExp;
  methods: Set<string>;
}

/** The path pattern of a link's URI template (`/tags/{id}` matches `/tags/5` and `/tags/5/`). */
export function hrefPattern(href: string): RegExp {
  return new RegExp(`^${href.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
}

type Served = Pick<HyperLink, 'href' | 'method'>;

function compile(links: readonly Served[]): PathMethods[] {
  const byHref = new Map<string, Set<string>>();
  for (const link of links) {
    const methods = byHref.get(link.href) ?? new Set<string>();
    methods.add(link.method);
    if (link.method === 'GET') methods.add('HEAD');
    byHref.set(link.href, methods);
  }
  return [...byHref].map(([href, methods]) => ({
    pattern: hrefPattern(href),
    methods,
  }));
}

/**
 * Runs after every route: a path the operations publish, asked with a method none of them has, is a 405
 * with `Allow` (from the same links the docs show); anything else falls through to 404.
 */
export function methodNotAllowed(links: readonly Served[]) {
  const paths = compile(links);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const allowed = new Set<string>();
    for (const entry of paths) if (entry.pattern.test(req.path)) entry.methods.forEach((m) => allowed.add(m));
    if (allowed.size && !allowed.has(req.method)) {
      const allow = [...allowed].sort().join(', ');
      throw new AppError('METHOD_NOT_ALLOWED', {
        description: `${req.method} is not allowed on ${req.path}; allowed: ${allow}.`,
        headers: { Allow: allow },
      });
    }
    next();
  };
}
