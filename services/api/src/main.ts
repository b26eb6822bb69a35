import { httpTimeoutsOf } from '@pfs/config';
import { runService, startConfiguredMetricsServer, startHttpServer, RunningHttpServer } from '@pfs/http';
import { bufferedStdout, createLogger, SpanExport, startSpanExport } from '@pfs/logger';
import { buildApiApp } from './app';
import { loadApiConfig, tlsOptionsOf } from './config';
import { ApiDependencies, createApiDependencies } from './dependencies';
import { ledgerDepsOf } from './ledger-deps';
import { RepeatTimer, startRepeatTimer } from './modules/repeats/repeat-timer';

async function main() {
  let config;
  try {
    config = loadApiConfig();
  } catch (error) {
    console.error(`api failed to start: ${(error as Error).message}`);
    process.exit(1);
  }
  // Buffered: one line per request is kept, without one blocking write per line (docs/bench.md).
  const logger = createLogger({ name: 'api', level: config.LOG_LEVEL, destination: bufferedStdout() });
  let deps: ApiDependencies | undefined;
  let server: RunningHttpServer | undefined;
  let metrics: RunningHttpServer | undefined;
  let repeatTimer: RepeatTimer | undefined;
  let spans: SpanExport | undefined;
  await runService('api', logger, {
    async start() {
      spans = await startSpanExport({
        endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
        serviceName: config.OTEL_SERVICE_NAME ?? 'api',
      });
      deps = await createApiDependencies(config, logger);
      server = await startHttpServer(buildApiApp(deps), {
        port: config.API_PORT,
        host: config.API_HOST,
        tls: tlsOptionsOf(config),
        timeouts: httpTimeoutsOf(config),
      });
      logger.info({ url: server.url }, 'api listening');
      metrics = await startConfiguredMetricsServer(config.API_METRICS_PORT, config.METRICS_HOST, logger);
      repeatTimer = startRepeatTimer(ledgerDepsOf(deps), logger, config.REPEAT_MATERIALIZE_INTERVAL_SECONDS);
    },
    async stop() {
      await repeatTimer?.stop();
      await server?.stop();
      await metrics?.stop();
      await deps?.close();
      // Last: spans of the work that drained above are sent before exit.
      await spans?.shutdown();
    },
  });
}

void main();
