import { Request, Response, Router } from 'express';
import type { Operation } from './operation';
import { scopesOf } from './openapi';
import { requireScopes } from './scopes';

/** How the app hands each handler its request context (the authenticated user, scopes, …). */
export type ContextOf<Ctx> = (req: Request, res: Response) => Ctx;

const segmentsOf = (template: string) => template.split('/').filter(Boolean);
const isParameter = (segment: string) => segment.startsWith('{');

/**
 * Literal segments before parameters, position by position (`/tags/sums` before `/tags/{id}`), then
 * shorter before longer, then by path and method: a total order, so the mounting order never depends on
 * the order the operations were listed in.
 */
function bySpecificity(a: MountedRoute, b: MountedRoute): number {
  const left = segmentsOf(a.route);
  const right = segmentsOf(b.route);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = Number(isParameter(left[i])) - Number(isParameter(right[i]));
    if (difference) return difference;
  }
  return left.length - right.length || a.route.localeCompare(b.route) || a.method.localeCompare(b.method);
}

/** `/images/{id}/{file}` → `/images/:id/:file` (Express's syntax). */
const expressPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

/** The shape of a route with its parameters unnamed: `/tags/{id}` and `/tags/{tag}` are the same route. */
const shapeOf = (template: string) => template.replace(/\{\w+\}/g, '{}');

interface MountedRoute {
  method: string;
  route: string;
  operation: Operation<unknown>;
}

/** One route per method and path; operations sharing one (several files of one download) share its handler. */
function routesOf<Ctx>(operations: Operation<Ctx>[]): MountedRoute[] {
  const routes = new Map<string, MountedRoute>();
  for (const operation of operations as Operation<unknown>[]) {
    const route = operation.route ?? operation.href;
    const key = `${operation.method} ${shapeOf(route)}`;
    const existing = routes.get(key);
    if (
      existing &&
      (existing.operation.handler !== operation.handler || existing.operation.scope !== operation.scope)
    ) {
      throw new Error(`two operations answer ${key}`);
    }
    if (!existing) routes.set(key, { method: operation.method, route, operation });
  }
  return [...routes.values()].sort(bySpecificity);
}

/**
 * The Express router of a list of operations: each route checks the operation's scopes (all of them;
 * none means any authenticated caller), runs its `before` steps, then calls the handler with the request
 * context. Mount it behind authentication; HEAD is served by the GET routes.
 */
export function operationsRouter<Ctx>(operations: Operation<Ctx>[], contextOf: ContextOf<Ctx>): Router {
  const router = Router();
  for (const { method, route, operation } of routesOf(operations)) {
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[verb](
      expressPath(route),
      requireScopes(...scopesOf(operation)),
      ...(operation.before ?? []),
      (req: Request, res: Response) => operation.handler(contextOf(req, res), req, res),
    );
  }
  return router;
}
