import { Router } from 'express';

/** A named dependency check: resolves when the dependency answers, rejects otherwise. */
export type HealthCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout(check: HealthCheck): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([check(), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Unauthenticated probes (docs/operations.md#health-checks):
 * - `GET /health/live`: 200 while the process serves HTTP at all; it touches no dependency, so an outage of
 *   Postgres or Redis never makes an orchestrator restart a healthy process.
 * - `GET /health/ready` (and the older `GET /health`, kept for existing probes): 200 when every dependency
 *   answers, 503 naming the ones that failed, so traffic goes elsewhere until they are back.
 * The reason is a short category only: connection strings and hosts stay out of the body.
 */
export function healthRoutes(checks: Record<string, HealthCheck>): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get(['/health', '/health/ready'], async (_req, res) => {
    const names = Object.keys(checks);
    const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name])));
    const report: Record<string, string> = {};
    const failed: string[] = [];
    results.forEach((result, index) => {
      report[names[index]] = result.status === 'fulfilled' ? 'ok' : 'unavailable';
      if (result.status === 'rejected') failed.push(names[index]);
    });
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(failed.length ? 503 : 200)
      .json({ status: failed.length ? 'unavailable' : 'ok', checks: report, failed });
  });
  return router;
}

/** Probe paths: never logged, never behind HTTPS redirection or authentication. */
export const HEALTH_PATHS = ['/health', '/health/live', '/health/ready'];

/** The readiness checks every service with a database and Redis has, in the order /health lists them. */
export function storeChecks(
  store: { postgres: HealthCheck; migrations: HealthCheck },
  redis: { ping(): Promise<unknown> },
): Record<'postgres' | 'redis' | 'migrations', HealthCheck> {
  return { postgres: store.postgres, redis: () => redis.ping(), migrations: store.migrations };
}
