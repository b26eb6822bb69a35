import type { WorkerDependencies } from '../dependencies';
import type { ExportJobHandler } from './export-resources.processor';

/**
 * The export pipeline entry point. The exports table and the generation pipeline arrive with the
 * exports issue (#6); until then a job is acknowledged and logged so the queue plumbing is exercised.
 */
export function handleExportJob(deps: WorkerDependencies): ExportJobHandler {
  return async (payload) => {
    deps.logger.info({ exportId: payload.exportId }, 'export received; generation not built yet');
  };
}
