import { dropDatabase } from '@pfs/resource-store';
import { testLogger, uniqueEmail } from '@pfs/testing';
import type { Worker } from 'bullmq';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { loadWorkerConfig } from '../../../../worker/src/config';
import { webhookDeliveryOf, workerRepositories } from '../../../../worker/src/dependencies';
import { startWebhookWorker } from '../../../../worker/src/worker';
import { webhookPayloadRenderer } from '../../../src/modules/webhooks/webhook-payloads';
import { startWebhookRelay, type WebhookRelay } from '../../../src/modules/webhooks/webhook-relay';
import type { CreatedClient } from '../../../../auth/src/use-cases/create-client.use-case';
import {
  AuthTestApp,
  createTestClient,
  createTestUser as createAuthUser,
  startAuthTestApp,
} from '../../../../auth/test/support/auth-test-app';
import { obtainTokens } from '../../../../auth/test/support/browser-flow';
import { ApiTestApp, startApiTestApp, TestUser } from '../../support/api-test-app';
import { startExportWorkerFor } from '../exports/export-harness';
import { startImportWorkerFor } from '../imports/import-harness';
import { type Receiver, startReceiver } from './webhook-receiver';

export { until, type Received, type Receiver } from './webhook-receiver';

/** Every area's scope: the application a connected user lets in may register webhooks of every event. */
const APP_SCOPE = 'user:rw categories:rw tags:rw entries:rw accounts:rw budgets:rw';

/** A user who let an OAuth application in through the real consent flow, and that application's tokens. */
export interface ConnectedUser extends TestUser {
  email: string;
  password: string;
  client: CreatedClient;
  refreshToken: string;
}

export interface WebhookHarness {
  api: ApiTestApp;
  /** The real auth service on the same database and Redis prefix (grants, revocation). */
  auth: AuthTestApp;
  worker: Worker;
  relay: WebhookRelay;
  /** A new user who let a new OAuth application in (sign-in, consent, code exchange): a live grant. */
  connect(): Promise<ConnectedUser>;
  /** A new receiver with the harness's certificate (trusted by the worker through WEBHOOK_CA_FILE). */
  receiver(): Promise<Receiver>;
  close(): Promise<void>;
}

/**
 * The real path of a webhook: the auth service and the API in-process (routes, outbox triggers, the relay
 * every 50 ms), real export and import workers (export.generated, import.imported) and a BullMQ webhook worker on a Postgres database and a Redis prefix of their own, delivering to loopback HTTPS
 * receivers whose self-signed certificate is generated here and trusted through WEBHOOK_CA_FILE. Retries
 * are fast (100 ms doubling to 400 ms) and a webhook is disabled after 5 s of failures.
 */
export async function startWebhookHarness(): Promise<WebhookHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'pfs-webhooks-'));
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const caFile = join(dir, 'receiver-ca.pem');
  await writeFile(caFile, pems.cert);
  // A database of its own: the relay claims every user's outbox events, so sharing the run's database would
  // let it deliver (and disable) the webhooks other suites register.
  const databaseUrl = `${process.env.DATABASE_URL}_wh${Math.random().toString(36).slice(2, 8)}`;
  const env = {
    DATABASE_URL: databaseUrl,
    STORAGE_DIR: dir,
    STORAGE_DRIVER: 'fs',
    EXPORT_URL: 'http://127.0.0.1:3000/export-files',
    EXPORT_LINK_SECRET: 'webhook-test-export-link-secret',
    REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}wh-${Math.random().toString(36).slice(2, 8)}:`,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_RELAY_INTERVAL_MS: '0',
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_RETRY_MAX_DELAY_MS: '400',
    WEBHOOK_RETRY_WINDOW_SECONDS: '60',
  };
  // Auth first: it migrates the auth tables too (grants and tokens decide whether a webhook is live).
  const auth = await startAuthTestApp(env);
  const api = await startApiTestApp(env);
  const exports = await startExportWorkerFor(api, env);
  const imports = await startImportWorkerFor(api);
  const config = loadWorkerConfig({
    ...process.env,
    ...env,
    WEBHOOK_CA_FILE: caFile,
    WEBHOOK_DISABLE_AFTER_SECONDS: '5',
    WEBHOOK_TIMEOUT_MS: '5000',
  });
  const logger = testLogger();
  const worker = startWebhookWorker(
    config,
    logger,
    webhookDeliveryOf(config, logger, workerRepositories(api.deps.dataSource)),
  );
  await worker.waitUntilReady();
  const relay = startWebhookRelay(
    {
      deliveries: api.deps.repos.webhookDeliveries,
      queue: api.deps.webhookQueue,
      render: webhookPayloadRenderer(api.deps),
      logger,
    },
    50,
  );
  const receivers: Receiver[] = [];
  return {
    api,
    auth,
    worker,
    relay,
    async connect() {
      const email = uniqueEmail('webhooks');
      const password = 'correct horse battery';
      const user = await createAuthUser(auth.deps, email, password);
      const client = await createTestClient(auth.deps, { name: 'Hook App', scope: APP_SCOPE });
      const tokens = await obtainTokens(auth.app, client, { email, password });
      return {
        userId: String(user.user.id),
        token: tokens.access_token,
        auth: `Bearer ${tokens.access_token}`,
        email,
        password,
        client,
        refreshToken: tokens.refresh_token,
      };
    },
    async receiver() {
      const receiver = await startReceiver({ key: pems.private, cert: pems.cert });
      receivers.push(receiver);
      return receiver;
    },
    async close() {
      await relay.stop();
      await worker.close();
      await imports.close();
      await exports.worker.close();
      exports.redis.disconnect();
      await Promise.all(receivers.map((receiver) => receiver.close()));
      await api.close();
      await auth.deps.close();
      await dropDatabase(databaseUrl);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
