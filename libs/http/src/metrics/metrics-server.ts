import type { Logger } from '@pfs/logger';
import { collectDefaultMetrics, register } from 'prom-client';
import { RunningHttpServer, startHttpServer } from '../http-server';

let defaultMetricsOn = false;

/** Node's process metrics (CPU, memory, event loop lag, GC) in the default registry, once per process. */
export function enableDefaultMetrics(): void {
  if (defaultMetricsOn) return;
  collectDefaultMetrics();
  defaultMetricsOn = true;
}

/**
 * `GET /metrics` in the Prometheus text format on its own port (never the public one, so an ingress that
 * routes the service's port cannot expose it), with Node's process metrics (CPU, memory, event loop lag, GC).
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
}): Promise<RunningHttpServer> {
  enableDefaultMetrics();
  return startHttpServer(
    (req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: GET /metrics\n');
        return;
      }
      register.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': register.contentType }).end(text),
        (error: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error.message}\n`),
      );
    },
    { port: options.port, host: options.host },
  );
}

/** Starts the metrics listener when its port is configured (`<SERVICE>_METRICS_PORT`), logging where it is. */
export async function startConfiguredMetricsServer(
  port: number | undefined,
  host: string,
  logger: Logger,
): Promise<RunningHttpServer | undefined> {
  if (port === undefined) return undefined;
  const server = await startMetricsServer({ port, host });
  // Not `url`: process supervisors and tests read the service's own address from that field.
  logger.info({ metricsUrl: `${server.url}/metrics` }, 'metrics listening');
  return server;
}
