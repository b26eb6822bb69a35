import { envBool, envEnum, envOptionalString, envOptionalUrl, envString, envUrl } from './fields';

/** Variables every service reads. */
export const runtimeShape = {
  NODE_ENV: envEnum(['development', 'production', 'test'], 'development'),
  LOG_LEVEL: envEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
};

export const databaseShape = {
  DATABASE_URL: envUrl('postgres://postgres@127.0.0.1:5432/pfs'),
};

export const redisShape = {
  REDIS_URL: envUrl('redis://127.0.0.1:6379/0'),
  /** Every Redis key and BullMQ queue of this deployment starts with it, so deployments (and test runs) can share a server. */
  REDIS_KEY_PREFIX: envString('pfs:'),
};

export const publicUrlShape = {
  BASE_URL: envUrl('http://127.0.0.1:3000'),
  AUTH_URL: envUrl('http://127.0.0.1:3001'),
  /** Where export files are served; by default the API serves them itself under /export-files. */
  EXPORT_URL: envUrl('http://127.0.0.1:3000/export-files'),
};

export const storageShape = {
  STORAGE_DRIVER: envEnum(['fs', 's3'], 'fs'),
  /** Root folder of the filesystem driver. */
  STORAGE_DIR: envString('var/storage'),
  S3_ENDPOINT: envOptionalUrl(),
  S3_BUCKET: envString('pfs-exports'),
  S3_REGION: envString('us-east-1'),
  S3_ACCESS_KEY_ID: envOptionalString(),
  S3_SECRET_ACCESS_KEY: envOptionalString(),
  S3_FORCE_PATH_STYLE: envBool(true),
  /** Signs the filesystem driver's download links (HS256); the API and the worker must share it. */
  EXPORT_LINK_SECRET: envString('development-export-link-secret'),
};
