import { httpTimeoutsOf } from '@pfs/config';
import { runService, startConfiguredMetricsServer, startHttpServer, RunningHttpServer } from '@pfs/http';
import { createLogger, SpanExport, startSpanExport } from '@pfs/logger';
import { buildAuthApp } from './app';
import { loadAuthConfig } from './config';
import { AuthDependencies, createAuthDependencies } from './dependencies';
import { restoreIntrospectionRecords } from './use-cases/restore-introspection.use-case';

/** config → dependencies → app → listen; SIGTERM drains and closes in reverse. */
async function main() {
  let config;
  try {
    config = loadAuthConfig();
  } catch (error) {
    console.error(`auth failed to start: ${(error as Error).message}`);
    process.exit(1);
  }
  const logger = createLogger({ name: 'auth', level: config.LOG_LEVEL });
  let deps: AuthDependencies | undefined;
  let server: RunningHttpServer | undefined;
  let metrics: RunningHttpServer | undefined;
  let spans: SpanExport | undefined;
  await runService('auth', logger, {
    async start() {
      spans = await startSpanExport({
        endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
        serviceName: config.OTEL_SERVICE_NAME ?? 'auth',
      });
      deps = await createAuthDependencies(config, logger);
      const restored = await restoreIntrospectionRecords(deps);
      logger.info({ restored }, 'introspection records restored from Postgres');
      server = await startHttpServer(buildAuthApp(deps), {
        port: config.AUTH_PORT,
        host: config.AUTH_HOST,
        timeouts: httpTimeoutsOf(config),
      });
      logger.info({ url: server.url }, 'auth listening');
      metrics = await startConfiguredMetricsServer(config.AUTH_METRICS_PORT, config.METRICS_HOST, logger);
    },
    async stop() {
      await server?.stop();
      await metrics?.stop();
      await deps?.close();
      // Last: spans of the work that drained above are sent before exit.
      await spans?.shutdown();
    },
  });
}

void main();
