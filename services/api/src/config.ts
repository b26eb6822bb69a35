import {
  Env,
  corsShape,
  defineConfig,
  envEnum,
  envInt,
  envOptionalString,
  envOptionalPort,
  envPort,
  envSecret,
  metricsShape,
  serviceShape,
  readReplicaShape,
  envString,
  pushTokenShape,
  storageShape,
  webhookShape,
} from '@pfs/config';
import { z } from 'zod';

/** Signs Service-Modified values and cursors; the config schema refuses it in production (envSecret). */
export const SYNC_TOKEN_SECRET_DEV_DEFAULT = 'development-only-sync-token-secret';

const optionalBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { errorMap: () => ({ message: 'must be true or false' }) })
  .transform((value) => value === 'true' || value === '1' || value === 'yes')
  .optional();

export const apiConfigShape = {
  ...serviceShape,
  ...readReplicaShape,
  ...storageShape,
  ...corsShape,
  ...pushTokenShape,
  ...webhookShape,
  API_PORT: envPort(3000),
  /** Interface to listen on; 0.0.0.0 inside containers. */
  API_HOST: envString('127.0.0.1'),
  /** Serves GET /metrics on this separate port when set (docs/operations.md); unset: no metrics listener. */
  API_METRICS_PORT: envOptionalPort(),
  ...metricsShape,
  /** Requests allowed per user and application in each window. */
  RATE_LIMIT_LIMIT: envInt(1000, 1, 1_000_000),
  RATE_LIMIT_WINDOW_SECONDS: envInt(60, 1, 86_400),
  /**
   * Token records, cached profiles and list versions held in the process, kept true by Redis client-side
   * caching, and the rate limit counted in batches (docs/rate-limits.md): auto = on with one Redis server, off
   * on a cluster.
   */
  GATE_LOCAL_CACHE: envEnum(['auto', 'on', 'off'], 'auto'),
  /** Secret signing Service-Modified values and pagination cursors (at least 16 characters). */
  SYNC_TOKEN_SECRET: envSecret(
    SYNC_TOKEN_SECRET_DEV_DEFAULT,
    z.string().min(16, 'must be at least 16 characters'),
  ),
  /** Refuse plain HTTP; default true when NODE_ENV=production, false otherwise. */
  REQUIRE_HTTPS: optionalBool,
  /** Serve TLS directly when both are set (PEM files); otherwise a proxy terminates TLS. */
  TLS_CERT_FILE: envOptionalString(),
  TLS_KEY_FILE: envOptionalString(),
  /** Express `trust proxy`: which hops may set X-Forwarded-Proto/For (loopback, a CIDR list, or a hop count). */
  TRUST_PROXY: envString('loopback'),
  /** Largest accepted image or PDF upload in bytes (POST /images; bigger is a 413). */
  IMAGE_MAX_BYTES: envInt(10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  /** Largest accepted statement upload in bytes (POST /imports; bigger is a 413). */
  IMPORT_MAX_BYTES: envInt(100 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  /** Seconds between passes that create due occurrences of repeating entries; 0 turns the timer off. */
  REPEAT_MATERIALIZE_INTERVAL_SECONDS: envInt(300, 0, 86_400),
  /** How often the webhook relay turns committed changes (the outbox) into queued deliveries; 0 turns it off. */
  WEBHOOK_RELAY_INTERVAL_MS: envInt(1_000, 0, 3_600_000),
  /** API processes behind API_PORT in this container (node:cluster); 1 runs the API in this process (docs/scaling.md). */
  API_WORKERS: envInt(1, 1, 64),
};

export type ApiConfig = ReturnType<typeof loadApiConfig>;

export function loadApiConfig(env: Env = process.env) {
  return defineConfig(apiConfigShape, env);
}

/** REQUIRE_HTTPS as set, else on in production. */
export function isHttpsRequired(config: ApiConfig): boolean {
  return config.REQUIRE_HTTPS ?? config.NODE_ENV === 'production';
}

/** Whether the gate holds token records and profiles in the process (GATE_LOCAL_CACHE; never on a cluster). */
export function isGateLocalCacheOn(config: ApiConfig): boolean {
  const cluster = (config.REDIS_CLUSTER_NODES?.length ?? 0) > 0;
  if (config.GATE_LOCAL_CACHE === 'on' && cluster) {
    throw new Error(
      'GATE_LOCAL_CACHE=on needs one Redis server: client-side caching is not used on a Redis Cluster',
    );
  }
  return config.GATE_LOCAL_CACHE !== 'off' && !cluster;
}

/** TLS files when both are set; one without the other is a start-up error. */
export function tlsOptionsOf(config: ApiConfig): { certFile: string; keyFile: string } | undefined {
  if (!config.TLS_CERT_FILE && !config.TLS_KEY_FILE) return undefined;
  if (!config.TLS_CERT_FILE || !config.TLS_KEY_FILE) {
    throw new Error('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  return { certFile: config.TLS_CERT_FILE, keyFile: config.TLS_KEY_FILE };
}
