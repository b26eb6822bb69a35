export { createDataSource, databaseTimeouts, preparedStatementsWanted } from './data-source';
export { preparedQuery } from './prepared-query';
export type { DatabaseTimeouts } from './data-source';
export { openDatabase, openServiceDatabase } from './open-database';
export type { OpenDatabaseOptions, ServiceDatabaseConfig } from './open-database';
export type { CreateDataSourceOptions } from './data-source';
export { dropDatabase, ensureDatabase } from './ensure-database';
export { runMigrations } from './run-migrations';
export { migrationsCheck, pendingMigrations } from './pending-migrations';
export { poolStatsOf } from './pool-stats';
export { storeHealth } from './store-health';
export type { StoreHealth } from './store-health';
export type { MigrationSet } from './run-migrations';
export { entryPresentedLineBackfillSql, resourceMigrations } from './migrations';
export { UserEntity } from './entities/user.entity';
export { UserRepository } from './repositories/user.repository';
export type { NewUser, User } from './repositories/user.repository';

/** Entities of the resource schema, for services that open a data source over it. */
import { UserEntity as UserEntityForList } from './entities/user.entity';
export const resourceEntities = [UserEntityForList];
export { CurrencyRateRepository } from './repositories/currency-rate.repository';
export type { RateImportResult } from './repositories/currency-rate.repository';
export { claimChangeSeq, readWatermark, withUserChange } from './sync/change-sequence';
export type { Actor, UserChange, UserRead } from './sync/user-change';
export { type ActorStore, type ListState, UserStore } from './sync/user-store';
export type { OneTripStatement } from './sync/one-trip-change';
export { plainEntriesInsert } from './repositories/entry-one-trip';
export type { PlainEntriesCreated, PlainEntryWrite } from './repositories/entry-one-trip';
export { ReadRouting } from './replica/read-routing';
export type { ReadRoutingOptions, WritePositions } from './replica/read-routing';
export { openReplica } from './replica/open-replica';
export { listTimelineEntries } from './repositories/timeline-entries';
export { ResourceTable } from './sync/resource-table';
export type {
  DecideUpdate,
  PageRequest,
  PageResult,
  PresentedPageResult,
  RawRow,
  ResourceTableOptions,
  Snapshot,
  SyncedRecord,
  TotalCountCache,
} from './sync/resource-table';
export { SqlParams } from './sync/sql-params';
export type { SqlFilter, SqlParam } from './sync/sql-params';
export { CategoryRepository, CATEGORY_COUNT_KEYS, categoriesTable } from './repositories/category.repository';
export type { Category, CategoryFilters, CategoryType } from './repositories/category.repository';
export { TagRepository, TAG_COUNT_KEYS } from './repositories/tag.repository';
export type { TagFilters } from './repositories/tag.repository';
export { tagsTable } from './repositories/tags-table';
export type { Tag, TagType } from './repositories/tags-table';
export { categoryUsageCounters, countUsage, tagUsageCounters } from './repositories/usage-counts';
export type { UsageCount, UsageCounter } from './repositories/reference-types';
export {
  accountMergeHooks,
  categoryReferenceHooks,
  tagReferenceHooks,
  tagToCategoryHooks,
} from './repositories/reference-hooks';
export type { ReferenceHook } from './repositories/reference-types';
export { ExportRepository, exportsTable } from './repositories/export.repository';
export type {
  ExportListFilters,
  ExportProgress,
  ExportRecord,
  NewExport,
} from './repositories/export.repository';
export { NotificationRepository } from './repositories/notification.repository';
export { WebhookRepository } from './repositories/webhook.repository';
export type { Webhook, WebhookInput } from './repositories/webhook.repository';
export { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';
export type {
  DeliveryToAttempt,
  OutboxEvent,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryStatus,
} from './repositories/webhook-delivery.repository';
export type { NewNotification, NotificationRecord } from './repositories/notification.repository';
export { PUSH_TOKEN_TYPES, PushTokenRepository } from './repositories/push-token.repository';
export type {
  DuePush,
  PushDelivery,
  PushDeliveryStatus,
  PushToken,
  PushTokenType,
} from './repositories/push-token.repository';
export {
  AccountRepository,
  accountsTable,
  ACCOUNT_STATUSES,
  ACCOUNT_TYPES,
} from './repositories/account.repository';
export type { Account, AccountGoal, AccountSnapshot } from './repositories/account.repository';
export { EntryRepository, entriesTable } from './repositories/entry.repository';
export { RepeatRepository } from './repositories/repeat.repository';
export type { RepeatSeries, StoredRepeatRule } from './repositories/repeat.repository';
export type { Entry, EntryLocation, EntryReminder, EntrySnapshot } from './repositories/entry.repository';
export { buildEntryFilters, sumEntriesByDay } from './repositories/entry-filters';
export {
  accountListFilters,
  expensesAndIncomesFilter,
  repeatSeriesFilters,
} from './repositories/list-filters';
export type { DailyTotal, EntryFilters, IdFilter } from './repositories/entry-filters';
export { IdempotencyRepository } from './repositories/idempotency.repository';
export type { IdempotentOutcome, StoredResponse } from './repositories/idempotency.repository';
export { UserProfileRepository } from './repositories/user-profile.repository';
export type {
  LockedProfile,
  ProfileUpdate,
  ProfileUpdateResult,
  UserRowChanged,
} from './repositories/user-profile.repository';
export { MainCurrencyChangeRepository } from './repositories/main-currency-change.repository';
export type { DayFactor } from './repositories/main-currency-change.repository';
export { ImageRepository } from './repositories/image.repository';
export type { ImageFilters } from './repositories/image.repository';
export { IMAGE_STATUSES, IMAGE_TYPES, imagesTable } from './repositories/images-table';
export type { ImageRecord, ImageStatus, ImageType, NewImage } from './repositories/images-table';
export {
  BUDGET_FREQUENCIES,
  BUDGET_REFERENCE_FIELDS,
  BUDGET_STATUSES,
  BUDGET_TYPES,
  BudgetRepository,
  budgetListFilters,
  budgetsTable,
} from './repositories/budget.repository';
export type {
  Budget,
  BudgetListFilters,
  BudgetRecurrence,
  BudgetReferenceField,
  BudgetSnapshot,
} from './repositories/budget.repository';
export { sumBudgetWindows } from './repositories/budget-window-sums';
export type { BudgetWindow, BudgetWindowTotal } from './repositories/budget-window-sums';
export { listEntryLocations } from './repositories/entry-locations';
export type { EntryLocationQuery, LocationGroup } from './repositories/entry-locations';
export * from './export-rows';
export * from './auth';
export { ImportRepository, importsTable } from './repositories/import.repository';
export type {
  EntryFingerprintSource,
  ImportError,
  ImportProgress,
  ImportRecord,
  NamedLabel,
  NewImport,
} from './repositories/import.repository';
