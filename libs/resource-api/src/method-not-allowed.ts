import { AppError } from '@pfs/errors';
import type { NextFunction, Request, Response } from 'express';
import type { SchemaRegistry } from './schema-registry';

interface PathMethods {
  pattern: RegExp;
  methods: Set<string>;
}

/** The path pattern of a link's URI template (`/tags/{id}` matches `/tags/5` and `/tags/5/`). */
export function hrefPattern(href: string): RegExp {
  return new RegExp(`^${href.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
}

function compile(registry: SchemaRegistry): PathMethods[] {
  const byHref = new Map<string, Set<string>>();
  for (const schema of registry.list()) {
    for (const link of schema.links) {
      const methods = byHref.get(link.href) ?? new Set<string>();
      methods.add(link.method);
      if (link.method === 'GET') methods.add('HEAD');
      byHref.set(link.href, methods);
    }
  }
  return [...byHref].map(([href, methods]) => ({
    pattern: hrefPattern(href),
    methods,
  }));
}

/**
 * Runs after every route: a path the schemas describe, asked with a method none of its links has, is a
 * 405 with `Allow` (from the same hyper-schema links the docs show); anything else falls through to 404.
 */
export function methodNotAllowed(registry: SchemaRegistry) {
  let paths: PathMethods[] | undefined;
  return (req: Request, _res: Response, next: NextFunction): void => {
    paths ??= compile(registry);
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
