export { buildWorkerApp } from './app';
export { loadWorkerConfig } from './config';
export type { WorkerConfig } from './config';
export { createWorkerDependencies } from './dependencies';
export { createExportProcessor } from './processors/export-resources.processor';
export { startExportWorker } from './worker';
