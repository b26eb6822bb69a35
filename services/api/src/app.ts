import { errorMiddleware, routeNotFoundMiddleware } from '@pfs/http';
import { methodNotAllowed, publishResources } from '@pfs/resource-api';
import express, { Express } from 'express';
import type { ApiDependencies } from './dependencies';
import { frontDoor } from './http/front-door';
import { apiModules, type ApiModule } from './modules';
import { PUBLISHED_ORDER } from './modules/published-order';

/** Express `trust proxy` from TRUST_PROXY: a hop count, true/false, or addresses/CIDRs/names. */
function trustProxyValue(raw: string): boolean | number | string {
  if (/^\d+$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

/**
 * Builds the resource API from its dependencies; no I/O happens here. `modules` is every module by
 * default (a test passes them in another order to show the order changes no answer).
 */
export function buildApiApp(deps: ApiDependencies, modules: readonly ApiModule[] = apiModules): Express {
  const published = publishResources(
    modules.flatMap((module) => module.schemas ?? []),
    [],
    PUBLISHED_ORDER,
  );
  published.forEach((schema) => deps.resourceApi.schemas.register(schema));
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustProxyValue(deps.config.TRUST_PROXY));
  app.use(frontDoor(deps, modules));
  for (const module of modules) {
    app.use(module.routes(deps));
  }
  app.use(methodNotAllowed(published.flatMap((schema) => schema.links)));
  app.use(routeNotFoundMiddleware);
  app.use(errorMiddleware(deps.logger));
  return app;
}
