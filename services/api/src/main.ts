import { httpTimeoutsOf } from '@pfs/config';
import { loadConfigOrExit, runHttpService, superviseWorkers } from '@pfs/http';
import { bufferedStdout, createLogger } from '@pfs/logger';
import { buildApiApp } from './app';
import { loadApiConfig, tlsOptionsOf } from './config';
import { createApiDependencies } from './dependencies';
import { apiModules } from './modules';
import { startModules } from './modules/api-module';
import { webhookPayloadRenderer } from './modules/webhooks/webhook-payloads';
import { startWebhookRelay, WebhookRelay } from './modules/webhooks/webhook-relay';

async function main() {
  const config = loadConfigOrExit('api', loadApiConfig);
  // Buffered: one line per request is kept, without one blocking write per line (docs/bench.md).
  const logger = createLogger({ name: 'api', level: config.LOG_LEVEL, destination: bufferedStdout() });
  const metrics = { port: config.API_METRICS_PORT, host: config.METRICS_HOST };
  // API_WORKERS > 1: this process forks the workers and supervises them; each worker runs what follows.
  if (await superviseWorkers('api', { workers: config.API_WORKERS, metrics }, logger)) return;
  let stopModules: (() => Promise<void>) | undefined;
  let webhookRelay: WebhookRelay | undefined;
  await runHttpService('api', logger, {
    tracing: { endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: config.OTEL_SERVICE_NAME },
    openDependencies: () => createApiDependencies(config, logger),
    app: (deps) => buildApiApp(deps),
    listen: () => ({
      port: config.API_PORT,
      host: config.API_HOST,
      tls: tlsOptionsOf(config),
      timeouts: httpTimeoutsOf(config),
    }),
    listeningMessage: 'api listening',
    metrics,
    afterListen(deps) {
      // The modules' own background work (the repeat materializer).
      stopModules = startModules(apiModules, deps);
      webhookRelay = startWebhookRelay(
        {
          deliveries: deps.repos.webhookDeliveries,
          queue: deps.webhookQueue,
          render: webhookPayloadRenderer(deps),
          logger,
        },
        config.WEBHOOK_RELAY_INTERVAL_MS,
      );
    },
    // First: a pass in progress finishes while the stores are still open.
    stopFirst: async () => {
      await stopModules?.();
      await webhookRelay?.stop();
    },
  });
}

void main();
