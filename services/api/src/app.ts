import { errorMiddleware, routeNotFoundMiddleware } from '@pfs/http';
import { methodNotAllowed, operationsRouter } from '@pfs/resource-api';
import express, { Express } from 'express';
import type { ApiDependencies } from './dependencies';
import { apiContextOf } from './http/api-operation';
import { frontDoor } from './http/front-door';
import { memoizedTrust, type TrustTest } from './http/memoized-trust';
import { apiModules, type ApiModule } from './modules';
import { operationsOf } from './modules/api-module';
import { mcpRoutes } from './modules/mcp/mcp.routes';
import { publishedSchemas } from './modules/published';

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
  const operations = modules.flatMap((module) => operationsOf(module, deps));
  const published = publishedSchemas(modules);
  published.forEach((schema) => deps.resourceApi.schemas.register(schema));
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustProxyValue(deps.config.TRUST_PROXY));
  // Express compiled the setting into 'trust proxy fn'; the same test, its answers kept (memoized-trust.ts).
  app.set('trust proxy fn', memoizedTrust(app.get('trust proxy fn') as TrustTest));
  // File uploads and downloads take and send other media types: the front door mounts them before its
  // JSON-only checks; every other operation comes after it. The MCP endpoint speaks JSON-RPC over its own
  // transport: it answers before the JSON-only checks too.
  const filesRouter = operationsRouter(
    operations.filter((operation) => operation.files),
    apiContextOf,
  );
  app.use(frontDoor(deps, [filesRouter, mcpRoutes(operations)]));
  app.use(
    operationsRouter(
      operations.filter((operation) => !operation.files),
      apiContextOf,
    ),
  );
  app.use(methodNotAllowed(published.flatMap((schema) => schema.links)));
  app.use(routeNotFoundMiddleware);
  app.use(errorMiddleware(deps.logger));
  return app;
}
