import {
  Env,
  defineConfig,
  envInt,
  envOptionalString,
  envOptionalUrl,
  envOptionalPort,
  envPort,
  metricsShape,
  serviceShape,
  readReplicaShape,
  envString,
  envUrl,
  pushTokenShape,
  storageShape,
  webhookShape,
} from '@pfs/config';

export const workerConfigShape = {
  ...serviceShape,
  ...readReplicaShape,
  ...storageShape,
  /** Port of the worker's health endpoint. */
  WORKER_PORT: envPort(3002),
  WORKER_HOST: envString('127.0.0.1'),
  /** Serves GET /metrics on this separate port when set (docs/operations.md); unset: no metrics listener. */
  WORKER_METRICS_PORT: envOptionalPort(),
  ...metricsShape,
  /** Exports one worker process generates at the same time. */
  WORKER_CONCURRENCY: envInt(2, 1, 64),
  /** Imports one worker process runs at the same time (each holds one database connection while it writes). */
  WORKER_IMPORT_CONCURRENCY: envInt(1, 1, 16),
  /** Exports one user may have generating at once, across all worker processes (the rest wait their turn). */
  EXPORT_USER_CONCURRENCY: envInt(1, 1, 64),
  /** How long a finished export (its file and its link) stays available; S3 presigned links cap it at 7 days. */
  EXPORT_TTL_SECONDS: envInt(7 * 24 * 3600, 60, 7 * 24 * 3600),
  /** How often the cleanup job removes expired export files. */
  EXPORT_CLEANUP_INTERVAL_SECONDS: envInt(3600, 1, 86_400),
  /** The scheduled cleanup removes `.partial` files (and S3 multipart uploads) of killed writers untouched this long. */
  STORAGE_PARTIAL_MAX_AGE_SECONDS: envInt(3600, 0, 7 * 24 * 3600),
  /** When set (smtp://user:pass@host:port), "sending" also emails the link to the user. */
  SMTP_URL: envOptionalUrl(),
  SMTP_FROM: envString('PFS <no-reply@localhost>'),
  /** Push providers (docs/exports.md, "Push"); each is off until its credentials are set. */
  APNS_KEY_FILE: envOptionalString(),
  APNS_KEY_ID: envOptionalString(),
  APNS_TEAM_ID: envOptionalString(),
  /** The iOS app's bundle id. */
  APNS_TOPIC: envOptionalString(),
  APNS_URL: envUrl('https://api.push.apple.com'),
  /** A Google service-account key file (JSON) with access to the Firebase project. */
  FCM_SERVICE_ACCOUNT_FILE: envOptionalString(),
  FCM_URL: envUrl('https://fcm.googleapis.com'),
  WNS_CLIENT_ID: envOptionalString(),
  WNS_CLIENT_SECRET: envOptionalString(),
  WNS_TOKEN_URL: envUrl('https://login.live.com/accesstoken.srf'),
  /** WNS_CHANNEL_HOSTS: the host suffixes a Windows channel URI may point at (shared with the API). */
  ...pushTokenShape,
  /** How often pushes a provider refused for a while are tried again. */
  PUSH_RETRY_INTERVAL_SECONDS: envInt(30, 1, 3600),
  /** Attempts before a push is given up. */
  PUSH_MAX_ATTEMPTS: envInt(5, 1, 50),
  /** Webhooks (docs/webhooks.md): the secret key and URL rules shared with the API, and the retry policy. */
  ...webhookShape,
  /** Webhook attempts one worker process makes at the same time. */
  WEBHOOK_CONCURRENCY: envInt(8, 1, 256),
  /** One attempt (connect, TLS, the receiver's answer) is abandoned after this long. */
  WEBHOOK_TIMEOUT_MS: envInt(10_000, 100, 120_000),
  /** A PEM file of extra certificate authorities receivers may use (private or test receivers). */
  WEBHOOK_CA_FILE: envOptionalString(),
  /** A webhook whose attempts have all failed for this long is disabled and its owner notified (24 h). */
  WEBHOOK_DISABLE_AFTER_SECONDS: envInt(86_400, 0, 30 * 86_400),
  /** Stalled checks: a job whose worker died is handed to another worker after this many ms. */
  WORKER_STALLED_INTERVAL_MS: envInt(30_000, 100, 600_000),
};

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;

export function loadWorkerConfig(env: Env = process.env) {
  return defineConfig(workerConfigShape, env);
}
