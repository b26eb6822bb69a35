import type { RequestHandler, Router } from 'express';

/** A route's first path segment when it is literal: `/schema/:name` → `schema`, `/` → ``. */
const LITERAL_SEGMENT = /^\/([\w.~-]*)(?:\/|$)/;
/** The literal first segment of a RegExp route written `^\/segment\/…` (the export download links). */
const LITERAL_REGEXP_SEGMENT = /^\^\\\/([\w.~-]+)\\\//;

function firstSegmentOfRoute(path: unknown): string {
  if (Array.isArray(path)) throw new Error('a path-scoped route takes one path at a time');
  const literal =
    typeof path === 'string'
      ? LITERAL_SEGMENT.exec(path)
      : path instanceof RegExp
        ? LITERAL_REGEXP_SEGMENT.exec(path.source)
        : null;
  if (!literal) throw new Error(`a path-scoped route must start with a literal segment: ${String(path)}`);
  return literal[1].toLowerCase();
}

/** The first segments `router`'s routes can match; it must hold routes only (no `use` layers). */
export function routeSegmentsOf(router: Router): Set<string> {
  const segments = new Set<string>();
  for (const layer of router.stack) {
    const path: unknown = layer.route?.path;
    if (path === undefined) throw new Error('a path-scoped router holds routes only');
    for (const one of Array.isArray(path) ? (path as unknown[]) : [path])
      segments.add(firstSegmentOfRoute(one));
  }
  return segments;
}

/** `/me/summary` → `me`; lower-cased, as Express matches routes without regard to case. */
function firstSegmentOf(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * Enters `router` only for a request whose path's first segment is one its routes start with; any other
 * request goes straight on. Express would walk the router's routes and find none matching; this skips the
 * walk, whose per-request closures and path matching were a quarter of the bytes a `GET /me` allocated
 * (docs/bench.md, session 7). The segments come from the router's own routes at boot, so a route added
 * later is never skipped; a route whose first segment is not literal fails the boot instead.
 */
export function pathScoped(router: Router): RequestHandler {
  const segments = routeSegmentsOf(router);
  return (req, res, next) => {
    if (segments.has(firstSegmentOf(req.path))) router(req, res, next);
    else next();
  };
}
