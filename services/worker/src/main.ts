import { httpTimeoutsOf, warnAboutDevelopmentSecrets } from '@pfs/config';
import { loadConfigOrExit, runHttpService } from '@pfs/http';
import { ExportJobQueue, ImportJobQueue, openExportJobQueue, openImportJobQueue } from '@pfs/jobs';
import { createLogger } from '@pfs/logger';
import type { Worker } from 'bullmq';
import { buildWorkerApp } from './app';
import { loadWorkerConfig, workerConfigShape } from './config';
import { createWorkerDependencies, WorkerDependencies } from './dependencies';
import { endExportOfFailedJob, handleExportJob } from './processors/handle-export-job';
import { handleImportJob } from './processors/import.processor';
import { cleanupExpiredExports } from './use-cases/cleanup-expired-exports.use-case';
import { repairUnfinishedExports } from './use-cases/repair-unfinished-exports.use-case';
import { repairUnfinishedImports } from './use-cases/repair-unfinished-imports.use-case';
import { observeQueueDepth } from './worker-metrics';
import {
  scheduleRecurringJobs,
  startAccountDeletionWorker,
  startExportWorker,
  startImportWorker,
  startRecurringWorkers,
  startWebhookWorker,
} from './worker';
import { createAccountDeletionProcessor } from './processors/account-deletion.processor';

async function main() {
  const config = loadConfigOrExit('worker', loadWorkerConfig);
  const logger = createLogger({ name: 'worker', level: config.LOG_LEVEL });
  warnAboutDevelopmentSecrets(workerConfigShape, config, (message) => logger.warn(message));
  const workers: Worker[] = [];
  let exportJobs: ExportJobQueue | undefined;
  let importJobs: ImportJobQueue | undefined;
  await runHttpService('worker', logger, {
    tracing: { endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: config.OTEL_SERVICE_NAME },
    openDependencies: () => createWorkerDependencies(config, logger),
    async beforeListen(deps: WorkerDependencies) {
      const jobs = openExportJobQueue(config);
      exportJobs = jobs;
      const imports = openImportJobQueue(config);
      importJobs = imports;
      const cleanup = async () => {
        const repaired = await repairUnfinishedExports(deps, jobs);
        if (repaired?.requeued || repaired?.failed) logger.warn(repaired, 'unfinished exports repaired');
        const importsRepaired = await repairUnfinishedImports(
          { ...deps.imports, locks: deps.repos.locks },
          imports,
        );
        if (importsRepaired?.requeued || importsRepaired?.failed) {
          logger.warn(importsRepaired, 'unfinished imports repaired');
        }
        const partialsBefore = new Date(Date.now() - config.STORAGE_PARTIAL_MAX_AGE_SECONDS * 1000);
        const swept = await deps.storage.sweepAbandonedWrites(partialsBefore);
        if (swept) logger.warn({ swept }, 'abandoned partial writes removed');
        return cleanupExpiredExports(deps);
      };
      workers.push(
        startExportWorker(config, logger, handleExportJob(deps), endExportOfFailedJob(deps)),
        startImportWorker(config, logger, handleImportJob(deps.imports)),
        ...startRecurringWorkers(config, logger, { cleanup, sendPushes: deps.sendPushes }),
        startAccountDeletionWorker(config, logger, createAccountDeletionProcessor(deps, logger)),
        startWebhookWorker(config, logger, deps.deliverWebhook),
      );
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
      await scheduleRecurringJobs(config);
    },
    app: (deps) => buildWorkerApp(deps, () => workers),
    listen: () => ({ port: config.WORKER_PORT, host: config.WORKER_HOST, timeouts: httpTimeoutsOf(config) }),
    listeningMessage: 'worker running',
    metrics: { port: config.WORKER_METRICS_PORT, host: config.METRICS_HOST },
    afterListen() {
      if (exportJobs) observeQueueDepth(exportJobs.jobCounts);
    },
    // After the servers: the jobs in progress finish; BullMQ hands unfinished ones to another worker as stalled.
    async stopBeforeDependencies() {
      await Promise.all(workers.map((worker) => worker.close()));
      await exportJobs?.close();
      await importJobs?.close();
    },
  });
}

void main();
