import { httpTimeoutsOf } from '@pfs/config';
import { loadConfigOrExit, runHttpService, superviseWorkers } from '@pfs/http';
import { bufferedStdout, createLogger } from '@pfs/logger';
import { buildAuthApp } from './app';
import { loadAuthConfig } from './config';
import { createAuthDependencies } from './dependencies';
import { restoreIntrospectionRecords } from './use-cases/restore-introspection.use-case';

/** config → dependencies → app → listen; SIGTERM drains and closes in reverse. */
async function main() {
  const config = loadConfigOrExit('auth', loadAuthConfig);
  // Buffered like the API's: one line per request, without one blocking write per line (docs/bench.md).
  const logger = createLogger({ name: 'auth', level: config.LOG_LEVEL, destination: bufferedStdout() });
  const metrics = { port: config.AUTH_METRICS_PORT, host: config.METRICS_HOST };
  // AUTH_WORKERS > 1: this process forks the workers and supervises them; each worker runs what follows.
  if (await superviseWorkers('auth', { workers: config.AUTH_WORKERS, metrics }, logger)) return;
  await runHttpService('auth', logger, {
    tracing: { endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: config.OTEL_SERVICE_NAME },
    openDependencies: () => createAuthDependencies(config, logger),
    async beforeListen(deps) {
      const restored = await restoreIntrospectionRecords(deps);
      logger.info({ restored }, 'introspection records restored from Postgres');
    },
    app: buildAuthApp,
    listen: () => ({ port: config.AUTH_PORT, host: config.AUTH_HOST, timeouts: httpTimeoutsOf(config) }),
    listeningMessage: 'auth listening',
    metrics,
  });
}

void main();
