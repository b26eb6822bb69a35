import { ListVersionSignals } from '@pfs/contracts';
import { serviceStoreStartup } from '@pfs/http';
import type { Logger } from '@pfs/logger';
import { closeRedis, openRedis, Redis, redisOptionsOf } from '@pfs/redis';
import { RateTable } from '@pfs/money';
import {
  AccountRepository,
  AdvisoryLocks,
  authEntities,
  ClientRepository,
  CategoryRepository,
  CurrencyRateRepository,
  EntryRepository,
  ImportRepository,
  TagRepository,
  databaseTimeouts,
  preparedStatementsWanted,
  ExportRepository,
  ExportSheetRepository,
  ExportStatementRepository,
  NotificationRepository,
  openServiceDatabase,
  openReplica,
  ReadRouting,
  PushTokenRepository,
  TokenRepository,
  resourceEntities,
  resourceMigrations,
  StoreHealth,
  storeHealth,
  UserStore,
  UserAccountRepository,
  UserArchiveRepository,
  UserRepository,
  WebhookDeliveryRepository,
} from '@pfs/resource-store';
import { webhookUrlPolicyOf } from '@pfs/config';
import { WebhookSecretCipher } from '@pfs/contracts';
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { createStorage, type ObjectStorage } from '@pfs/storage';
import type { WorkerConfig } from './config';
import { createMailer } from '@pfs/mail';
import { createUserSlots } from './delivery/user-slots';
import { closePushProviders, createPushProviders } from './push/create-push-providers';
import { sendDuePushes } from './push/send-due-pushes.use-case';
import type { ImportDependencies } from './use-cases/import-dependencies';
import type { WebhookDeliveryHandler } from './processors/webhook-delivery.processor';
import { deliverWebhook, type WebhookDeliveryDeps } from './webhooks/deliver-webhook.use-case';
import { trustingAlso } from './webhooks/send-signed-webhook';
import type { PipelineDependencies, WorkerRepositories } from './use-cases/pipeline-dependencies';

export interface WorkerDependencies extends PipelineDependencies {
  config: WorkerConfig;
  redis: Redis;
  storeHealth: StoreHealth;
  /** Sends the push outbox's due pushes: the push delivery job's work. */
  sendPushes: () => Promise<number>;
  /** What the import job needs (docs/imports.md). */
  imports: ImportDependencies;
  /** One attempt of one webhook delivery: the webhook delivery job's work. */
  deliverWebhook: WebhookDeliveryHandler;
  close(): Promise<void>;
}

/**
 * Every repository the worker uses, built once over its data source; `routing`: where export rows are read (a replica once it has the export's position; DATABASE_READ_URL).
 * `listVersionMoved`: told after each committed write of a user (the API's held list versions: UserStore).
 */
export function workerRepositories(
  dataSource: DataSource,
  routing: ReadRouting = ReadRouting.primaryOnly(dataSource),
  listVersionMoved?: (userId: string) => Promise<void>,
): WorkerRepositories {
  const store = new UserStore(dataSource, undefined, listVersionMoved);
  return {
    store,
    exports: new ExportRepository(dataSource),
    exportSheets: new ExportSheetRepository(dataSource, routing),
    exportStatements: new ExportStatementRepository(dataSource, routing),
    userArchives: new UserArchiveRepository(dataSource),
    notifications: new NotificationRepository((userId) => store.written(userId)),
    pushTokens: new PushTokenRepository(dataSource),
    users: new UserRepository(dataSource),
    locks: new AdvisoryLocks(dataSource),
    userAccounts: new UserAccountRepository(dataSource),
    tokens: new TokenRepository(dataSource),
    clients: new ClientRepository(dataSource),
    webhookDeliveries: new WebhookDeliveryRepository(dataSource),
    imports: new ImportRepository(dataSource),
    accounts: new AccountRepository(),
    entries: new EntryRepository(),
    categories: new CategoryRepository(),
    tags: new TagRepository(),
    currencyRates: new CurrencyRateRepository(dataSource),
  };
}

/** The import pipeline's dependencies over the worker's repositories; rates load on first use. */
export function importDependencies(
  repos: WorkerRepositories,
  storage: ObjectStorage,
  logger: Logger,
): ImportDependencies {
  let rates: Promise<RateTable> | undefined;
  return {
    logger,
    repos,
    storage,
    rates: () => {
      rates ??= repos.currencyRates.listAll().then((all) => new RateTable(all));
      rates.catch(() => (rates = undefined));
      return rates;
    },
  };
}

export async function createWorkerDependencies(
  config: WorkerConfig,
  logger: Logger,
): Promise<WorkerDependencies> {
  // Built first: a push misconfiguration stops the worker before it opens any connection.
  const providers = createPushProviders(config);
  const stores = serviceStoreStartup(config, logger);
  const dataSource = await stores.postgres(() =>
    // Export rows stream by FETCH, each its own statement: both timeouts bound one fetch, not an export.
    openServiceDatabase(config, logger, {
      migrationSets: [resourceMigrations],
      // The auth tables' entities too: the account deletion job revokes tokens and removes the user's apps.
      entities: [...resourceEntities, ...authEntities],
      applicationName: 'pfs-worker',
    }),
  );
  const redis = await stores.redis(() => openRedis(redisOptionsOf(config)), dataSource);
  const mailer = createMailer(config.SMTP_URL, config.SMTP_FROM);
  const replica = await stores.postgres(() =>
    openReplica({
      url: config.DATABASE_READ_URL,
      timeouts: databaseTimeouts(config),
      preparedStatements: preparedStatementsWanted(config),
      entities: resourceEntities,
      applicationName: 'pfs-worker',
    }),
  );
  const routing = new ReadRouting(dataSource, replica, {
    waitMs: config.DATABASE_REPLICA_WAIT_MS,
    onFallback: (reason, error) =>
      reason !== 'behind' && logger.warn({ err: error, reason }, 'export rows read from the primary'),
  });
  const signals = new ListVersionSignals(redis, (error, userId) =>
    logger.warn({ err: error, userId }, 'could not signal a moved list version'),
  );
  const repos = workerRepositories(dataSource, routing, (userId) => signals.moved(userId));
  const storage = createStorage(config);
  return {
    config,
    logger,
    repos,
    redis,
    storeHealth: storeHealth(dataSource, [resourceMigrations]),
    storage,
    imports: importDependencies(repos, storage, logger),
    sendPushes: () =>
      sendDuePushes({
        pushTokens: repos.pushTokens,
        providers,
        logger,
        maxAttempts: config.PUSH_MAX_ATTEMPTS,
      }),
    deliverWebhook: webhookDeliveryOf(config, logger, repos),
    slots: createUserSlots(redis, config.EXPORT_USER_CONCURRENCY),
    mailer,
    ttlSeconds: config.EXPORT_TTL_SECONDS,
    async close() {
      mailer?.close();
      await closePushProviders(providers);
      await closeRedis(redis);
      if (replica?.isInitialized) await replica.destroy();
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}

/** The webhook delivery job's work over the worker's repositories (the CA file is read once, here). */
export function webhookDeliveryOf(
  config: WorkerConfig,
  logger: Logger,
  repos: WorkerRepositories,
): WebhookDeliveryHandler {
  const deps: WebhookDeliveryDeps = {
    deliveries: repos.webhookDeliveries,
    notifications: repos.notifications,
    store: repos.store,
    cipher: new WebhookSecretCipher(config.WEBHOOK_SECRET_KEY),
    policy: webhookUrlPolicyOf(config),
    send: {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      secureContext: config.WEBHOOK_CA_FILE
        ? trustingAlso(readFileSync(config.WEBHOOK_CA_FILE, 'utf8'))
        : undefined,
    },
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000,
    logger,
  };
  return (deliveryId, isFinalAttempt) => deliverWebhook(deps, deliveryId, isFinalAttempt);
}
