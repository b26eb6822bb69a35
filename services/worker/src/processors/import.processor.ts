import { ImportJobPayload, importJob } from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import type { Job } from 'bullmq';
import { type ImportDependencies } from '../use-cases/import-dependencies';
import { failImport, runImport } from '../use-cases/run-import.use-case';
import { runTracedJob } from './traced-job';

export type ImportJobHandler = (payload: ImportJobPayload, job: Job) => Promise<void>;

/** What the user reads when every attempt of an import failed for a reason of ours (not the file's). */
export const IMPORT_GAVE_UP_REASON = 'The import could not be completed; please try again later.';

/**
 * The import job: runs the import from its stored state. A transient failure (the database went away) is
 * retried by BullMQ with backoff, resuming after the last committed batch; the last failed attempt ends the
 * import in `error`. A bad file is not a job failure: the import ends in `error` with its line and field.
 */
export function handleImportJob(deps: ImportDependencies): ImportJobHandler {
  return async (payload, job) => {
    const { userId, importId } = payload;
    try {
      await deps.repos.imports.countAttempt(deps.repos.store.read(userId), importId);
      await runImport(deps, userId, importId);
    } catch (error) {
      deps.logger.warn({ err: error, importId, attempt: job.attemptsMade + 1 }, 'import attempt failed');
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        const record = await deps.repos.imports.findById(deps.repos.store.read(userId), importId);
        if (record) await failImport(deps, record, { reason: IMPORT_GAVE_UP_REASON });
      }
      throw error;
    }
  };
}

/** The thin BullMQ processor of the imports queue: the job is checked against its contract first. */
export function createImportProcessor(handle: ImportJobHandler, logger: Logger) {
  return async (job: Job): Promise<void> => {
    await runTracedJob(
      job,
      { contract: importJob, logger, what: 'import', subject: ({ importId }) => ({ importId }) },
      (payload) => handle(payload, job),
    );
  };
}
