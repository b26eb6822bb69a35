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

export const apiConfigShape = {
  ...runtimeShape,
  ...databaseShape,
  ...redisShape,
  ...publicUrlShape,
  ...storageShape,
  API_PORT: envPort(3000),
  /** Interface to listen on; 0.0.0.0 inside containers. */
  API_HOST: envString('127.0.0.1'),
  /** Requests allowed per user and application in each window. */
  RATE_LIMIT_LIMIT: envInt(1000, 1, 1_000_000),
  RATE_LIMIT_WINDOW_SECONDS: envInt(60, 1, 86_400),
};

export type ApiConfig = ReturnType<typeof loadApiConfig>;

export function loadApiConfig(env: Env = process.env) {
  return defineConfig(apiConfigShape, env);
}
