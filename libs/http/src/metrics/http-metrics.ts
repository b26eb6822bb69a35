import type { Request, Response } from 'express';
import { Histogram } from 'prom-client';

/**
 * Request count and latency per route template (`/accounts/:id`, never a raw path with ids, which would make
 * a series per resource) and status. Requests no route matched (404s, and refusals before routing such as
 * 401/429) share the template `unmatched`. The `_count` series is the request count.
 */
const requestDuration = new Histogram({
  name: 'pfs_http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status, with their latency',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

type Child = ReturnType<typeof requestDuration.labels>;

/** Children cached by one string key: the hot path makes no label object, only a short key. */
const children = new Map<string, Child>();

export function routeTemplateOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? req.baseUrl + path : 'unmatched';
}

/** One histogram observation for a finished request (called by the request logger, which already timed it). */
export function observeHttpRequest(req: Request, res: Response, elapsedMs: number): void {
  const route = routeTemplateOf(req);
  const status = res.writableFinished ? res.statusCode : 499;
  const key = `${req.method} ${route} ${status}`;
  let child = children.get(key);
  if (!child) {
    child = requestDuration.labels(req.method, route, String(status));
    children.set(key, child);
  }
  child.observe(elapsedMs / 1000);
}
