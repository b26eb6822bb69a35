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
 * `GET /health`: 200 when every dependency answers, 503 naming the ones that failed.
 * The reason is a short category only: connection strings and hosts stay out of the body.
 */
export function healthRoutes(checks: Record<string, HealthCheck>): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
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
