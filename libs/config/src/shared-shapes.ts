import {
  envHostPortList,
  envBool,
  envEnum,
  envInt,
  envOptionalPostgresUrl,
  envOptionalString,
  envOptionalUrl,
  envOriginList,
  envPostgresUrl,
  envString,
  envUrl,
} from './fields';
import { z } from 'zod';
import { envSecret } from './production-secrets';

/** Variables every service reads. */
export const runtimeShape = {
  NODE_ENV: envEnum(['development', 'production', 'test'], 'development'),
  LOG_LEVEL: envEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  /**
   * How long a service keeps retrying (with backoff) a Postgres or Redis it cannot reach at start before it
   * exits naming the variable: containers often start before their database; 0 tries once.
   */
  STARTUP_RETRY_SECONDS: envInt(60, 0, 3600),
  /** An OpenTelemetry collector's OTLP/HTTP base URL (/v1/traces is added); unset, no span is exported and no SDK loads. */
  OTEL_EXPORTER_OTLP_ENDPOINT: envOptionalUrl(),
  /** The `service.name` of exported spans; by default the service's own name (api, auth, worker). */
  OTEL_SERVICE_NAME: envOptionalString(),
};

export const databaseShape = {
  /** Where queries go: Postgres itself, or a pooler in front of it (PgBouncer in transaction mode works). */
  DATABASE_URL: envPostgresUrl('postgres://postgres@127.0.0.1:5432/pfs'),
  /**
   * Postgres itself, never a pooler: CREATE DATABASE and the migrations (DDL, in their own transactions) run
   * over it at start. Unset: DATABASE_URL. Set it when DATABASE_URL points at PgBouncer (docs/scaling.md).
   */
  DATABASE_DIRECT_URL: envOptionalPostgresUrl(),
  /** A statement running longer is cancelled (server side) or abandoned (client side, a frozen server): the request gets a 503. */
  DATABASE_STATEMENT_TIMEOUT_MS: envInt(30_000, 100, 3_600_000),
  /** Waiting longer for a pooled connection (or a new one) is a 503, not a hang. */
  DATABASE_CONNECT_TIMEOUT_MS: envInt(5_000, 100, 120_000),
  /**
   * The store's hot reads as named prepared statements (parsed and planned once per connection): `auto` prepares
   * unless DATABASE_DIRECT_URL is set (DATABASE_URL is then a pooler, and PgBouncer before 1.21 in transaction
   * mode cannot carry them); `on` for a pooler that can (PgBouncer >= 1.21 with max_prepared_statements).
   */
  DATABASE_PREPARED_STATEMENTS: envEnum(['auto', 'on', 'off'], 'auto'),
};

/** A streaming replica for heavy reads (api and worker; docs/scaling.md). */
export const readReplicaShape = {
  /**
   * A hot-standby replica of DATABASE_URL's primary: sums, timeline, summary, budget figures and export rows
   * are read there once it has replayed the user's last write. Unset: everything reads the primary.
   */
  DATABASE_READ_URL: envOptionalPostgresUrl(),
  /** How long such a read waits for the replica to replay the user's last write before it reads the primary. */
  DATABASE_REPLICA_WAIT_MS: envInt(200, 0, 10_000),
};

export const redisShape = {
  REDIS_URL: envUrl('redis://127.0.0.1:6379/0'),
  /**
   * Redis Cluster seed nodes (`host:port,host:port`): when set, every client is an ioredis Cluster over them
   * and REDIS_URL is not used (docs/scaling.md).
   */
  REDIS_CLUSTER_NODES: envHostPortList(),
  /** Every Redis key and BullMQ queue of this deployment starts with it, so deployments (and test runs) can share a server. */
  REDIS_KEY_PREFIX: envString('pfs:'),
  /** A Redis command unanswered this long fails (a frozen Redis gives 503s, not hung requests). */
  REDIS_COMMAND_TIMEOUT_MS: envInt(2_000, 50, 60_000),
  /** Giving up on one (re)connection attempt after this long. */
  REDIS_CONNECT_TIMEOUT_MS: envInt(5_000, 100, 120_000),
};

export const publicUrlShape = {
  BASE_URL: envUrl('http://127.0.0.1:3000'),
  AUTH_URL: envUrl('http://127.0.0.1:3001'),
  /** Where export files are served; by default the API serves them itself under BASE_URL + /export-files. */
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
  EXPORT_LINK_SECRET: envSecret('development-export-link-secret'),
};

/** The interface every service's separate metrics port listens on (docs/operations.md#metrics-and-what-to-alert-on). */
export const metricsShape = {
  METRICS_HOST: envString('127.0.0.1'),
};

/** Browser apps allowed to call the API and the token endpoint (CORS); none by default. */
export const corsShape = {
  CORS_ORIGINS: envOriginList(),
};

/** How long a client may take to send a request, on every HTTP server (docs/operations.md, "Timeouts"). */
export const httpServerShape = {
  /** Until the request's headers are all in. */
  HTTP_HEADERS_TIMEOUT_MS: envInt(10_000, 100, 600_000),
  /** Until the whole request, body included, is in. */
  HTTP_REQUEST_TIMEOUT_MS: envInt(60_000, 100, 3_600_000),
  /** The longest pause between two pieces of a request body; a stalled body gets 408 and a closed connection. */
  HTTP_BODY_TIMEOUT_MS: envInt(10_000, 100, 600_000),
};

/** What every HTTP service reads: runtime, its HTTP server's timeouts, Postgres, Redis and its public URL. */
export const serviceShape = {
  ...runtimeShape,
  ...httpServerShape,
  ...databaseShape,
  ...redisShape,
  ...publicUrlShape,
};

/** The HTTP server timeouts (startHttpServer's `timeouts`) from a config holding httpServerShape. */
export function httpTimeoutsOf(config: {
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_BODY_TIMEOUT_MS: number;
}) {
  return {
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    bodyIdleTimeoutMs: config.HTTP_BODY_TIMEOUT_MS,
  };
}

/**
 * Push token rules both the API (checks a token at POST /me/push) and the worker (sends to it) apply:
 * host suffixes a Windows channel URI may point at, parsed once into lower-case names.
 */
export const pushTokenShape = {
  WNS_CHANNEL_HOSTS: envString('notify.windows.com').transform((raw) =>
    raw
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
  ),
};

/** Development default of the webhook-secret key; the config schema refuses it in production (envSecret). */
export const DEVELOPMENT_WEBHOOK_SECRET_KEY = 'ZGV2LW9ubHktd2ViaG9vay1rZXktY2hhbmdlLW1lLTE';

/**
 * Webhook rules both the API (registers a webhook, encrypts its secret) and the worker (delivers, decrypts)
 * apply (docs/webhooks.md).
 */
export const webhookShape = {
  /** 32 bytes, base64url: the AES-256-GCM key that encrypts webhook signing secrets at rest. */
  WEBHOOK_SECRET_KEY: envSecret(
    DEVELOPMENT_WEBHOOK_SECRET_KEY,
    z
      .string()
      .refine(
        (value) => Buffer.from(value, 'base64url').length === 32,
        'must be 32 bytes, base64url-encoded',
      ),
  ),
  /**
   * Loopback receivers (127.0.0.0/8, ::1) allowed: for tests and local development only. Private, link-local,
   * multicast and unspecified addresses are refused whatever this says.
   */
  WEBHOOK_ALLOW_LOOPBACK: envBool(false),
  /** The first retry's delay; each next one doubles, up to WEBHOOK_RETRY_MAX_DELAY_MS. */
  WEBHOOK_RETRY_BASE_MS: envInt(30_000, 10, 3_600_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: envInt(4 * 3600 * 1000, 10, 24 * 3600 * 1000),
  /** Retries stop once their delays would pass this long after the first attempt (24 h). */
  WEBHOOK_RETRY_WINDOW_SECONDS: envInt(86_400, 1, 7 * 86_400),
};

/** The URL policy of webhooks from a config holding webhookShape: https only in production. */
export function webhookUrlPolicyOf(config: { NODE_ENV: string; WEBHOOK_ALLOW_LOOPBACK: boolean }) {
  return { requireHttps: config.NODE_ENV === 'production', allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK };
}
