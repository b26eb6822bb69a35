import {
  Env,
  databaseShape,
  defineConfig,
  envInt,
  envPort,
  envString,
  publicUrlShape,
  redisShape,
  runtimeShape,
  storageShape,
} from '@pfs/config';

export const workerConfigShape = {
  ...runtimeShape,
  ...databaseShape,
  ...redisShape,
  ...publicUrlShape,
  ...storageShape,
  /** Port of the worker's health endpoint. */
  WORKER_PORT: envPort(3002),
  WORKER_HOST: envString('127.0.0.1'),
  /** Exports one worker process generates at the same time. */
  WORKER_CONCURRENCY: envInt(2, 1, 64),
};

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;

export function loadWorkerConfig(env: Env = process.env) {
  return defineConfig(workerConfigShape, env);
}
