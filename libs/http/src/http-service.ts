import type { RequestListener } from 'node:http';
import { Logger, SpanExport, startSpanExport } from '@pfs/logger';
import { startHttpServer, RunningHttpServer, StartHttpServerOptions } from './http-server';
import { startConfiguredMetricsServer } from './metrics/metrics-server';
import { runService } from './service-lifecycle';
import { answerMetricsOfPrimary, isClusterWorker } from './cluster-primary';

/**
 * Reads a service's config once at boot. A bad value is printed as the reason and the process exits 1:
 * there is no logger yet, since the log level is itself config.
 */
export function loadConfigOrExit<C>(name: string, load: () => C): C {
  try {
    return load();
  } catch (error) {
    console.error(`${name} failed to start: ${(error as Error).message}`);
    process.exit(1);
  }
}

/** What differs between the HTTP services; `runHttpService` does the rest the same way for each. */
export interface HttpService<D extends { close(): Promise<void> }> {
  /** OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME (the service's name when unset). */
  tracing: { endpoint?: string; serviceName?: string };
  /** Connects the stores the service needs; `close()` closes them at stop. */
  openDependencies(): Promise<D>;
  /** The service's own start-up between its dependencies and its HTTP server (restores, job workers). */
  beforeListen?(deps: D): Promise<void>;
  app(deps: D): RequestListener;
  /** Read at start, so that a bad setting (TLS files) is a start-up failure like any other. */
  listen(): StartHttpServerOptions;
  /** The line logged with the server's `url` once it listens. */
  listeningMessage: string;
  /** The separate /metrics listener; none when the port is unset. */
  metrics: { port: number | undefined; host: string };
  /** Started last, once everything listens (timers, gauges). */
  afterListen?(deps: D): void;
  /** Stopped first, before the servers drain (a timer that writes). */
  stopFirst?(): Promise<void>;
  /** Stopped once the servers have drained, before the dependencies close (job workers, queues). */
  stopBeforeDependencies?(): Promise<void>;
}

/**
 * Runs an HTTP service as a process (`runService`): spans → dependencies → its own start-up → HTTP server
 * → metrics; a stop drains in reverse, spans last so that the spans of the drained work are sent before exit.
 */
export async function runHttpService<D extends { close(): Promise<void> }>(
  name: string,
  logger: Logger,
  service: HttpService<D>,
): Promise<void> {
  let spans: SpanExport | undefined;
  let deps: D | undefined;
  let server: RunningHttpServer | undefined;
  let metrics: RunningHttpServer | undefined;
  await runService(name, logger, {
    async start() {
      spans = await startSpanExport({
        endpoint: service.tracing.endpoint,
        serviceName: service.tracing.serviceName ?? name,
      });
      deps = await service.openDependencies();
      await service.beforeListen?.(deps);
      server = await startHttpServer(service.app(deps), service.listen());
      logger.info({ url: server.url }, service.listeningMessage);
      // A cluster worker's metrics are served by its primary, summed (superviseWorkers).
      if (isClusterWorker()) answerMetricsOfPrimary();
      else metrics = await startConfiguredMetricsServer(service.metrics.port, service.metrics.host, logger);
      service.afterListen?.(deps);
    },
    async stop() {
      await service.stopFirst?.();
      await server?.stop();
      await metrics?.stop();
      await service.stopBeforeDependencies?.();
      await deps?.close();
      await spans?.shutdown();
    },
  });
}
