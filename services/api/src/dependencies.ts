import { warnAboutDevelopmentSecrets, webhookUrlPolicyOf } from '@pfs/config';
import {
  accessTokenKey,
  LIST_VERSION_KEY_PREFIX,
  ListVersionSignals,
  USER_PROFILE_KEY_PREFIX,
  WebhookSecretCipher,
  type WebhookUrlPolicy,
} from '@pfs/contracts';
import { serviceStoreStartup } from '@pfs/http';
import {
  AccountDeletionQueue,
  ExportJobQueue,
  openAccountDeletionQueue,
  ImportJobQueue,
  openExportJobQueue,
  openImportJobQueue,
  openWebhookDeliveryQueue,
  type WebhookDeliveryQueue,
} from '@pfs/jobs';
import type { Logger, TraceContext } from '@pfs/logger';
import { ResourceApi } from '@pfs/resource-api';
import { closeRedis, openRedis, Redis, redisOptionsOf } from '@pfs/redis';
import {
  AccountRepository,
  authEntities,
  BudgetRepository,
  CategoryRepository,
  CredentialRepository,
  CurrencyRateRepository,
  databaseTimeouts,
  preparedStatementsWanted,
  EntryRepository,
  ExportRepository,
  IdempotencyRepository,
  ImageRepository,
  ImportRepository,
  LiveTokenRepository,
  MainCurrencyChangeRepository,
  NotificationRepository,
  openServiceDatabase,
  openReplica,
  PushTokenRepository,
  ReadRouting,
  RepeatRepository,
  resourceEntities,
  resourceMigrations,
  StoreHealth,
  storeHealth,
  TagRepository,
  TokenRepository,
  UserProfileRepository,
  UserRepository,
  type UserRowChanged,
  UserStore,
  type Actor,
  type ActorStore,
  WebhookDeliveryRepository,
  WebhookRepository,
} from '@pfs/resource-store';
import { createStorage, ObjectStorage } from '@pfs/storage';
import type { DataSource } from 'typeorm';
import { ApiConfig, apiConfigShape, isGateLocalCacheOn } from './config';
import { GateLocal, LOCAL_MAX_AGE_MS, LOCAL_MAX_ENTRIES, RequestGate } from './middleware/request-gate';
import { RateLimitBatcher } from './middleware/rate-limit-batcher';
import { TrackedKeys } from './middleware/tracked-keys';
import { HeldListStates } from './http/held-list-states';
import { UserProfileCache } from './modules/me/user-profile-cache';
import { RateBook } from './modules/currencies/rate-book';
import { storeReports } from './store-reports';
import { RedisWritePositions } from './write-positions';

/** Every repository the API uses, built once here. */
export interface ApiRepositories {
  accounts: AccountRepository;
  budgets: BudgetRepository;
  categories: CategoryRepository;
  currencyRates: CurrencyRateRepository;
  entries: EntryRepository;
  exports: ExportRepository;
  idempotency: IdempotencyRepository;
  images: ImageRepository;
  imports: ImportRepository;
  /** Live tokens, for re-warming Redis's introspection records when Redis misses one. */
  liveTokens: LiveTokenRepository;
  mainCurrencyChange: MainCurrencyChangeRepository;
  notifications: NotificationRepository;
  pushTokens: PushTokenRepository;
  repeats: RepeatRepository;
  tags: TagRepository;
  userProfiles: UserProfileRepository;
  users: UserRepository;
  webhooks: WebhookRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  /** `DELETE /me` re-checks the password and closes the account (revokes every token, removes the password). */
  credentials: CredentialRepository;
  tokens: TokenRepository;
}

export interface ApiDependencies {
  config: ApiConfig;
  logger: Logger;
  dataSource: DataSource;
  /** The health probes and pool counters of the database, for /health and the metrics. */
  storeHealth: StoreHealth;
  redis: Redis;
  /**
   * Contexts for the repositories, opened for an actor: `store.read(ctx)`, `store.change(ctx, work)` (the
   * unit of work) with the request's context, `{ userId }` for work outside any application.
   */
  store: ActorStore;
  repos: ApiRepositories;
  users: UserRepository;
  /** The conventions layer: schemas, sync tokens, responses (docs/conventions.md). */
  resourceApi: ResourceApi;
  /** Authentication and rate limiting in one Redis round trip. */
  gate: RequestGate;
  /** Each user's list state held in the process while the gate's tracking is on (the unchanged answers). */
  listStates: HeldListStates;
  /** The cached `/me` representation; every write of a users row calls its `invalidate` after commit. */
  profileCache: UserProfileCache;
  /** EUR reference rates in memory (imported from the shipped ECB history on first start). */
  rates: RateBook;
  /** Producer of export jobs (docs/exports.md). */
  exportQueue: ExportJobQueue;
  /** Producer of the account deletion job (`DELETE /me`). */
  accountDeletions: AccountDeletionQueue;
  /** Producer of import jobs (docs/imports.md). */
  importQueue: ImportJobQueue;
  /** Where export files are stored; the API streams them for the fs driver's links. */
  storage: ObjectStorage;
  /** Producer of webhook delivery jobs (docs/webhooks.md): the relay and redeliveries queue through it. */
  webhookQueue: WebhookDeliveryQueue;
  /** Encrypts webhook signing secrets at rest (WEBHOOK_SECRET_KEY). */
  webhookCipher: WebhookSecretCipher;
  /** Where webhooks may point (https in production, loopback only when allowed). */
  webhookUrlPolicy: WebhookUrlPolicy;
  close(): Promise<void>;
}

/**
 * Every repository the API uses, over `dataSource`; `profileChanged` runs after a users row write commits,
 * `written` after an idempotent POST's write commits (UserStore.written: read-your-writes).
 */
export function apiRepositories(
  dataSource: DataSource,
  profileChanged: UserRowChanged,
  written: (who: Actor) => Promise<void> = async () => undefined,
): ApiRepositories {
  return {
    accounts: new AccountRepository(),
    budgets: new BudgetRepository(),
    categories: new CategoryRepository(),
    currencyRates: new CurrencyRateRepository(dataSource),
    entries: new EntryRepository(),
    exports: new ExportRepository(dataSource),
    idempotency: new IdempotencyRepository(dataSource, written),
    images: new ImageRepository(),
    imports: new ImportRepository(dataSource),
    liveTokens: new LiveTokenRepository(dataSource),
    mainCurrencyChange: new MainCurrencyChangeRepository(),
    notifications: new NotificationRepository(),
    pushTokens: new PushTokenRepository(dataSource),
    repeats: new RepeatRepository(dataSource),
    tags: new TagRepository(),
    userProfiles: new UserProfileRepository(profileChanged),
    users: new UserRepository(dataSource),
    webhooks: new WebhookRepository(),
    webhookDeliveries: new WebhookDeliveryRepository(dataSource),
    credentials: new CredentialRepository(dataSource),
    tokens: new TokenRepository(dataSource),
  };
}

/** The gate's tracked token records and profiles and its batched rate limit (GATE_LOCAL_CACHE). */
async function startGateLocal(config: ApiConfig, redis: Redis, logger: Logger): Promise<GateLocal> {
  const keys = new TrackedKeys(redis, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    prefixes: [accessTokenKey(''), USER_PROFILE_KEY_PREFIX, LIST_VERSION_KEY_PREFIX],
    maxEntries: LOCAL_MAX_ENTRIES,
    maxAgeMs: LOCAL_MAX_AGE_MS,
    onStateChange: (enabled, error) =>
      enabled
        ? logger.info('gate: Redis client-side caching on')
        : logger.warn({ err: error }, 'gate: Redis client-side caching off until its connections are back'),
  });
  await keys.start();
  const limits = new RateLimitBatcher(
    redis,
    config.RATE_LIMIT_LIMIT,
    config.RATE_LIMIT_WINDOW_SECONDS * 1000,
  );
  return { keys, limits };
}

/** Connects to Postgres and Redis (failing fast with the reason), migrates the resource schema, wires repositories. */
export async function createApiDependencies(config: ApiConfig, logger: Logger): Promise<ApiDependencies> {
  warnAboutDevelopmentSecrets(apiConfigShape, config, (message) => logger.warn(message));
  const stores = serviceStoreStartup(config, logger);
  const dataSource = await stores.postgres(() =>
    openServiceDatabase(config, logger, {
      migrationSets: [resourceMigrations],
      // The auth tables' entities too: DELETE /me reads the credential and revokes tokens.
      entities: [...resourceEntities, ...authEntities],
      applicationName: 'pfs-api',
    }),
  );
  const reports = storeReports(logger);
  // A write of the users row has committed when this runs: a Redis failure must not turn it into a 500
  // (a retry would then be a 409). The cached copy expires within its TTL (10 minutes) anyway. (Called only
  // by requests, after the cache below exists.)
  const dropCachedProfile = async ({ userId, trace }: Actor) => {
    await profileCache.invalidate(userId).catch((error) => reports.profileNotDropped(error, userId, trace));
    await store.written({ userId, trace });
  };
  const replica = await stores.postgres(() =>
    openReplica({
      url: config.DATABASE_READ_URL,
      timeouts: databaseTimeouts(config),
      preparedStatements: preparedStatementsWanted(config),
      entities: resourceEntities,
      applicationName: 'pfs-api',
    }),
  );
  const repos = apiRepositories(dataSource, dropCachedProfile, (who) => store.written(who));
  const rates = await new RateBook(repos.currencyRates, logger).load({ warm: config.NODE_ENV !== 'test' });
  // Auto-pipelined: the gate checks of requests that arrive together share one Redis write and read.
  const redis = await stores.redis(
    () => openRedis({ ...redisOptionsOf(config), autoPipelining: true }),
    dataSource,
  );
  const exportQueue = openExportJobQueue(config);
  const webhookQueue = openWebhookDeliveryQueue(config);
  const accountDeletions = openAccountDeletionQueue(config);
  const importQueue = openImportJobQueue(config);
  const profileCache = new UserProfileCache(redis);
  const gateLocal = isGateLocalCacheOn(config) ? await startGateLocal(config, redis, logger) : undefined;
  const routing = new ReadRouting(dataSource, replica, {
    waitMs: config.DATABASE_REPLICA_WAIT_MS,
    positions: new RedisWritePositions(redis),
    onFallback: reports.readFromPrimary,
    onRecordError: reports.positionLost,
  });
  // After each committed write: this process's copy goes at once, every other's on the signal's invalidation.
  const signals = new ListVersionSignals<TraceContext>(redis, reports.signalLost);
  const store = new UserStore(dataSource, routing, (userId, trace) => {
    listStates.forget(userId);
    return signals.moved(userId, trace);
  });
  const listStates = new HeldListStates(store, gateLocal?.keys);
  return {
    config,
    logger,
    dataSource,
    storeHealth: storeHealth(dataSource, [resourceMigrations]),
    redis,
    store,
    listStates,
    repos,
    users: repos.users,
    rates,
    resourceApi: new ResourceApi({ baseUrl: config.BASE_URL, syncSecret: config.SYNC_TOKEN_SECRET, redis }),
    gate: new RequestGate(
      redis,
      {
        keyPrefix: config.REDIS_KEY_PREFIX,
        limit: config.RATE_LIMIT_LIMIT,
        windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
      },
      gateLocal,
    ),
    profileCache,
    exportQueue,
    accountDeletions,
    importQueue,
    storage: createStorage(config),
    webhookQueue,
    webhookCipher: new WebhookSecretCipher(config.WEBHOOK_SECRET_KEY),
    webhookUrlPolicy: webhookUrlPolicyOf(config),
    async close() {
      await exportQueue.close();
      await webhookQueue.close();
      await accountDeletions.close();
      await importQueue.close();
      await gateLocal?.keys.close();
      await closeRedis(redis);
      if (replica?.isInitialized) await replica.destroy();
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
