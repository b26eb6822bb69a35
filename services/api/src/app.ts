import {
  errorMiddleware,
  healthRoutes,
  requestIdMiddleware,
  requestLoggerMiddleware,
  routeNotFoundMiddleware,
} from '@pfs/http';
import express, { Express } from 'express';
import helmet from 'helmet';
import type { ApiDependencies } from './dependencies';
import { authenticate } from './middleware/authenticate.middleware';
import { meRoutes } from './modules/me/me.routes';

/** Builds the resource API from its dependencies; no I/O happens here. */
export function buildApiApp(deps: ApiDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  app.use(requestIdMiddleware);
  app.use(requestLoggerMiddleware(deps.logger));
  app.use(helmet());
  app.use(
    healthRoutes({
      postgres: () => deps.dataSource.query('SELECT 1'),
      redis: () => deps.redis.ping(),
    }),
  );
  app.use(authenticate(deps.redis));
  app.use(meRoutes({ users: deps.users }));
  app.use(routeNotFoundMiddleware);
  app.use(errorMiddleware(deps.logger));
  return app;
}
