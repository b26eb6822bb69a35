import {
  errorMiddleware,
  healthRoutes,
  observeDependencies,
  requestIdMiddleware,
  routeNotFoundMiddleware,
  storeChecks,
} from '@pfs/http';
import type { Worker } from 'bullmq';
import express, { Express } from 'express';
import type { WorkerDependencies } from './dependencies';

/** The worker's own small HTTP surface: health probes (docs/operations.md#health-checks). */
export function buildWorkerApp(deps: WorkerDependencies, workers: () => readonly Worker[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  const checks = {
    ...storeChecks(deps.storeHealth, deps.redis),
    queue: async () => {
      const running = workers();
      if (!running.length || !running.every((worker) => worker.isRunning()))
        throw new Error('worker not running');
    },
  };
  app.use(healthRoutes(checks));
  observeDependencies({ checks, pool: deps.storeHealth.pool });
  app.use(routeNotFoundMiddleware);
  app.use(errorMiddleware(deps.logger));
  return app;
}
