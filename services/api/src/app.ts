import {
  bodyTextGuard,
  corsMiddleware,
  errorMiddleware,
  HEALTH_PATHS,
  healthRoutes,
  observeDependencies,
  jsonDepthVerifier,
  requestIdMiddleware,
  requestLoggerMiddleware,
  requestTargetGuard,
  routeNotFoundMiddleware,
  traceMiddleware,
} from '@pfs/http';
import {
  httpsMiddleware,
  jsonBodyTypes,
  methodNotAllowed,
  negotiateMediaType,
  placeholderBodies,
  publishResources,
  requireJsonBody,
} from '@pfs/resource-api';
import { migrationsCheck, poolStatsOf, resourceMigrations } from '@pfs/resource-store';
import express, { Express } from 'express';
import helmet from 'helmet';
import { isHttpsRequired } from './config';
import type { ApiDependencies } from './dependencies';
import { authenticate } from './middleware/authenticate.middleware';
import { apiModules, type ApiModule } from './modules';
import { PUBLISHED_ORDER } from './modules/published-order';
import { schemaRoutes } from './modules/schema/schema.routes';
import { exportFilesRoutes } from './modules/exports/export-files.routes';
import { personalTokenUseRecorder } from './middleware/personal-token-use';
import { TokenRecordFallback } from './middleware/token-record-fallback';
import { isGetMe } from './modules/me/me.routes';

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
  // Redis holds token records without persistence; after it restarts empty they come back from Postgres.
  const fallback = new TokenRecordFallback(deps.dataSource, deps.redis);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustProxyValue(deps.config.TRUST_PROXY));
  app.use(traceMiddleware);
  app.use(requestIdMiddleware);
  app.use(requestLoggerMiddleware(deps.logger));
  // Before HTTPS, authentication and the rate limit: a preflight carries no token and must not count.
  app.use(corsMiddleware(deps.config.CORS_ORIGINS));
  app.use(requestTargetGuard);
  // HSTS is sent by httpsMiddleware, only on secure responses (browsers ignore it on plain HTTP anyway).
  app.use(helmet({ strictTransportSecurity: false }));
  app.use(httpsMiddleware({ required: isHttpsRequired(deps.config), exemptPaths: HEALTH_PATHS }));
  const checks = {
    postgres: () => deps.dataSource.query('SELECT 1'),
    redis: () => deps.redis.ping(),
    migrations: migrationsCheck(deps.dataSource, [resourceMigrations]),
  };
  app.use(healthRoutes(checks));
  observeDependencies({ checks, pool: () => poolStatsOf(deps.dataSource) });
  // Schemas, OpenAPI and the docs page are public: documentation needs no token.
  app.use(schemaRoutes(deps));
  // Export downloads carry their own signed, expiring link instead of a bearer token.
  app.use(exportFilesRoutes(deps));
  // Authentication first, so every answer from here on (406, 415 and 400 included) carries X-RateLimit-*.
  app.use(
    authenticate(deps.gate, {
      onPersonalTokenUse: personalTokenUseRecorder(deps),
      prefetchProfile: isGetMe,
      recoverRecord: (token) => fallback.recover(token),
    }),
  );
  for (const module of modules) {
    if (module.fileRoutes) app.use(module.fileRoutes(deps));
  }
  app.use(negotiateMediaType);
  app.use(requireJsonBody);
  app.use(express.json({ type: jsonBodyTypes, limit: '256kb', verify: jsonDepthVerifier() }));
  app.use(bodyTextGuard);
  app.use(placeholderBodies(deps.resourceApi.schemas));
  for (const module of modules) {
    app.use(module.routes(deps));
  }
  app.use(methodNotAllowed(published.flatMap((schema) => schema.links)));
  app.use(routeNotFoundMiddleware);
  app.use(errorMiddleware(deps.logger));
  return app;
}
