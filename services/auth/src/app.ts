import {
  corsMiddleware,
  errorMiddleware,
  healthRoutes,
  observeDependencies,
  recordedHeaders,
  requestIdMiddleware,
  requestLoggerMiddleware,
  requestTargetGuard,
  storeChecks,
  routeNotFoundMiddleware,
  traceMiddleware,
} from '@pfs/http';
import { apiResourceIndicators } from '@pfs/contracts';
import express, { Express } from 'express';
import helmet from 'helmet';
import { AuthDependencies, passwordAttemptLimits, secondFactorDependencies } from './dependencies';
import { accountMailRoutes } from './routes/account-mail.routes';
import { accountRoutes } from './routes/account.routes';
import { accountDeletionRoutes } from './routes/account-deletion.routes';
import { accountSecurityRoutes } from './routes/account-security.routes';
import { authorizeRoutes } from './routes/authorize.routes';
import { developerRoutes } from './routes/developer.routes';
import { loginTwoFactorRoutes } from './routes/login-two-factor.routes';
import { loginRoutes } from './routes/login.routes';
import { metadataRoutes } from './routes/metadata.routes';
import { registerRoutes } from './routes/register.routes';
import { revokeRoutes } from './routes/revoke.routes';
import { tokenRoutes } from './routes/token.routes';
import { secretQueryMiddleware } from './web/secret-query.middleware';
import { htmlErrorPages, htmlNotFound } from './web/html-errors';

/** Builds the auth app from its dependencies; no I/O happens here. */
export function buildAuthApp(deps: AuthDependencies): Express {
  const app = express();
  const secureCookies = deps.config.AUTH_URL.startsWith('https://');
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(traceMiddleware);
  app.use(requestIdMiddleware);
  app.use(secretQueryMiddleware);
  app.use(requestLoggerMiddleware(deps.logger));
  // Browser apps (public clients with PKCE) call these with fetch; the pages stay same-origin only.
  app.use(
    ['/oauth2/token', '/oauth2/revoke', '/oauth2/register', '/.well-known/oauth-authorization-server'],
    corsMiddleware(deps.config.CORS_ORIGINS),
  );
  app.use(requestTargetGuard);
  // Pages carry no scripts; the default CSP forbids inline scripts, and form-action stays on our origin. Helmet's
  // headers depend on its options only, so they are computed once at boot (recordedHeaders) and set per request.
  app.use(recordedHeaders(helmet({ contentSecurityPolicy: { directives: { 'form-action': ["'self'"] } } })));
  // The token endpoint ahead of the health, metadata and page routers, none of which answers its path: each
  // router Express walks past costs every grant its matching (about 15 µs a grant in all: docs/bench.md, session 7).
  const resources = apiResourceIndicators(deps.config.BASE_URL);
  app.use(
    tokenRoutes({
      oauth: deps.oauth,
      modelFor: deps.oauthModelFor,
      logger: deps.logger,
      limiter: deps.limiter,
      accessTokenTtlSeconds: deps.config.ACCESS_TOKEN_TTL_SECONDS,
      checks: {
        ...deps,
        secondFactor: secondFactorDependencies(deps),
        maxRequestsPerIp: deps.config.AUTH_TOKEN_MAX_REQUESTS_PER_IP,
        maxFailuresPerClient: deps.config.AUTH_TOKEN_MAX_FAILURES_PER_CLIENT,
        resources,
      },
    }),
  );
  const checks = storeChecks(deps.storeHealth, deps.redis);
  app.use(healthRoutes(checks));
  observeDependencies({ checks, pool: deps.storeHealth.pool });
  app.use(metadataRoutes(deps.config.AUTH_URL));
  const loginDependencies = {
    ...deps,
    secureCookies,
    sessionTtlSeconds: deps.config.SESSION_TTL_SECONDS,
    authUrl: deps.config.AUTH_URL,
    ...passwordAttemptLimits(deps),
  };
  app.use(loginRoutes(loginDependencies));
  app.use(loginTwoFactorRoutes({ ...loginDependencies, secondFactor: secondFactorDependencies(deps) }));
  app.use(
    accountMailRoutes({
      ...loginDependencies,
      maxMailsPerAddress: deps.config.AUTH_MAIL_MAX_PER_ADDRESS,
      maxMailsPerIp: deps.config.AUTH_MAIL_MAX_PER_IP,
    }),
  );
  const accountDependencies = { ...deps, secureCookies, passwordLimits: passwordAttemptLimits(deps) };
  app.use(accountRoutes(accountDependencies));
  app.use(accountSecurityRoutes(accountDependencies));
  app.use(accountDeletionRoutes(accountDependencies));
  app.use(developerRoutes({ ...deps, secureCookies }));
  app.use(revokeRoutes(deps));
  app.use(registerRoutes({ ...deps, maxPerIp: deps.config.AUTH_REGISTER_MAX_PER_IP }));
  app.use(
    authorizeRoutes({
      ...deps,
      secureCookies,
      accessTokenTtlSeconds: deps.config.ACCESS_TOKEN_TTL_SECONDS,
      maxRequestsPerIp: deps.config.AUTH_AUTHORIZE_MAX_REQUESTS_PER_IP,
      resources,
    }),
  );
  app.use(htmlNotFound);
  app.use(routeNotFoundMiddleware);
  app.use(htmlErrorPages(deps.logger));
  app.use(errorMiddleware(deps.logger));
  return app;
}
