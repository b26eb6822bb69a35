export { ConfigError, defineConfig } from './define-config';
export type { Env } from './env';
export {
  envBool,
  envEnum,
  envHostPortList,
  envInt,
  envOptionalPort,
  envOptionalString,
  envOptionalUrl,
  envOriginList,
  envPort,
  envPostgresUrl,
  envString,
  envUrl,
} from './fields';
export {
  corsShape,
  databaseShape,
  readReplicaShape,
  metricsShape,
  httpServerShape,
  httpTimeoutsOf,
  publicUrlShape,
  pushTokenShape,
  redisShape,
  runtimeShape,
  serviceShape,
  storageShape,
  webhookShape,
  webhookUrlPolicyOf,
} from './shared-shapes';
export { envSecret, secretsAtDevelopmentDefault, warnAboutDevelopmentSecrets } from './production-secrets';
