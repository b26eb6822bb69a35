import {
  bodyTextGuard,
  corsMiddleware,
  HEALTH_PATHS,
  healthRoutes,
  jsonDepthVerifier,
  observeDependencies,
  recordedHeaders,
  requestIdMiddleware,
  requestLoggerMiddleware,
  requestTargetGuard,
  storeChecks,
  traceMiddleware,
} from '@pfs/http';
import {
  httpsMiddleware,
  jsonBodyTypes,
  negotiateMediaType,
  placeholderBodies,
  requireJsonBody,
} from '@pfs/resource-api';
import express, { type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import { isHttpsRequired } from '../config';
import type { ApiDependencies } from '../dependencies';
import { authenticate } from '../middleware/authenticate.middleware';
import { personalTokenUseRecorder } from '../middleware/personal-token-use';
import { TokenRecordFallback } from '../middleware/token-record-fallback';
import { exportFilesRoutes } from '../modules/exports/export-files.routes';
import { isGetMe } from '../modules/me/me.routes';
import { protectedResourceRoutes, resourceMetadataUrl } from '../modules/mcp/protected-resource.routes';
import { schemaRoutes } from '../modules/schema/schema.routes';
import { oneLayer } from './one-layer';
import { parseWhenBody } from './parse-when-body';
import { pathScoped } from './path-scoped';

/**
 * Everything a request passes before the module routes, in one Express layer (oneLayer): trace, request
 * id, request log, CORS, the URL guard, helmet's headers (precomputed), HTTPS, the public routes, then
 * authentication and rate limit (one Redis round trip), the file and MCP routes (`filesRouters`), media
 * type and the JSON body checks. The order is the order of the steps below, exactly as when each was its own
 * `app.use`; a router is entered only by a path its routes start with (pathScoped).
 */
export function frontDoor(deps: ApiDependencies, filesRouters: readonly Router[]): RequestHandler {
  // Redis holds token records without persistence; after it restarts empty they come back from Postgres.
  const fallback = new TokenRecordFallback(deps.repos.liveTokens, deps.redis);
  const checks = storeChecks(deps.storeHealth, deps.redis);
  observeDependencies({ checks, pool: deps.storeHealth.pool });
  return oneLayer(
    traceMiddleware,
    requestIdMiddleware,
    requestLoggerMiddleware(deps.logger),
    // Before HTTPS, authentication and the rate limit: a preflight carries no token and must not count.
    corsMiddleware(deps.config.CORS_ORIGINS),
    requestTargetGuard,
    // HSTS is sent by httpsMiddleware, only on secure responses (browsers ignore it on plain HTTP anyway).
    recordedHeaders(helmet({ strictTransportSecurity: false })),
    httpsMiddleware({ required: isHttpsRequired(deps.config), exemptPaths: HEALTH_PATHS }),
    // The routers below are entered only by a path one of their routes starts with (pathScoped).
    pathScoped(healthRoutes(checks)),
    // Schemas, OpenAPI and the docs page are public: documentation needs no token.
    pathScoped(schemaRoutes(deps)),
    // RFC 9728 metadata naming the authorization server: how an MCP client finds where to sign in.
    pathScoped(protectedResourceRoutes(deps.config)),
    // Export downloads carry their own signed, expiring link instead of a bearer token.
    pathScoped(exportFilesRoutes(deps)),
    // Authentication first, so every answer from here on (406, 415 and 400 included) carries X-RateLimit-*.
    authenticate(deps.gate, {
      onPersonalTokenUse: personalTokenUseRecorder(deps),
      prefetchProfile: isGetMe,
      recoverRecord: (token) => fallback.recover(token),
      resourceMetadata: (req) => resourceMetadataUrl(deps.config.BASE_URL, req),
    }),
    // File routes take and send other media types, so they answer before the JSON-only checks.
    ...filesRouters.map(pathScoped),
    negotiateMediaType,
    requireJsonBody,
    parseWhenBody(express.json({ type: jsonBodyTypes, limit: '256kb', verify: jsonDepthVerifier() })),
    bodyTextGuard,
    placeholderBodies(deps.resourceApi.schemas),
  );
}
