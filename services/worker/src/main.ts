import { httpTimeoutsOf, warnAboutDevelopmentSecrets } from '@pfs/config';
import { runService, startConfiguredMetricsServer, startHttpServer, RunningHttpServer } from '@pfs/http';
import { ExportJobQueue, openExportJobQueue } from '@pfs/jobs';
import { createLogger, SpanExport, startSpanExport } from '@pfs/logger';
import type { Worker } from 'bullmq';
import { buildWorkerApp } from './app';
import { loadWorkerConfig, workerConfigShape } from './config';
import { createWorkerDependencies, WorkerDependencies } from './dependencies';
import { endExportOfFailedJob, handleExportJob } from './processors/handle-export-job';
import { cleanupExpiredExports } from './use-cases/cleanup-expired-exports.use-case';
import { repairUnfinishedExports } from './use-cases/repair-unfinished-exports.use-case';
import { observeQueueDepth } from './worker-metrics';
import { scheduleRecurringJobs, startExportWorker, startRecurringWorkers } from './worker';

async function main() {
  let config;
  try {
    config = loadWorkerConfig();
  } catch (error) {
    console.error(`worker failed to start: ${(error as Error).message}`);
    process.exit(1);
  }
  const logger = createLogger({ name: 'worker', level: config.LOG_LEVEL });
  warnAboutDevelopmentSecrets(workerConfigShape, config, (message) => logger.warn(message));
  let deps: WorkerDependencies | undefined;
  const workers: Worker[] = [];
  let exportJobs: ExportJobQueue | undefined;
  let server: RunningHttpServer | undefined;
  let metrics: RunningHttpServer | undefined;
  let spans: SpanExport | undefined;
  await runService('worker', logger, {
    async start() {
      spans = await startSpanExport({
        endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
        serviceName: config.OTEL_SERVICE_NAME ?? 'worker',
      });
      deps = await createWorkerDependencies(config, logger);
      const ready = deps;
      const jobs = openExportJobQueue(config);
      exportJobs = jobs;
      const cleanup = async () => {
        const repaired = await repairUnfinishedExports(ready, jobs);
        if (repaired?.requeued || repaired?.failed) logger.warn(repaired, 'unfinished exports repaired');
        const partialsBefore = new Date(Date.now() - config.STORAGE_PARTIAL_MAX_AGE_SECONDS * 1000);
        const swept = await ready.storage.sweepAbandonedWrites(partialsBefore);
        if (swept) logger.warn({ swept }, 'abandoned partial writes removed');
        return cleanupExpiredExports(ready);
      };
      workers.push(
        startExportWorker(config, logger, handleExportJob(ready), endExportOfFailedJob(ready)),
        ...startRecurringWorkers(config, logger, { cleanup, sendPushes: ready.sendPushes }),
      );
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
      await scheduleRecurringJobs(config);
      server = await startHttpServer(
        buildWorkerApp(deps, () => workers),
        {
          port: config.WORKER_PORT,
          host: config.WORKER_HOST,
          timeouts: httpTimeoutsOf(config),
        },
      );
      logger.info({ url: server.url }, 'worker running');
      observeQueueDepth(jobs.jobCounts);
      metrics = await startConfiguredMetricsServer(config.WORKER_METRICS_PORT, config.METRICS_HOST, logger);
    },
    async stop() {
      await server?.stop();
      await metrics?.stop();
      // Lets the jobs in progress finish; BullMQ hands unfinished ones to another worker as stalled.
      await Promise.all(workers.map((worker) => worker.close()));
      await exportJobs?.close();
      await deps?.close();
      // Last: spans of the work that drained above are sent before exit.
      await spans?.shutdown();
    },
  });
}

void main();
