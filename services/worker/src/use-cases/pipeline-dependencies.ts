import type { Logger } from '@pfs/logger';
import type {
  AccountRepository,
  AdvisoryLocks,
  ClientRepository,
  CategoryRepository,
  CurrencyRateRepository,
  EntryRepository,
  ImportRepository,
  TagRepository,
  ExportRepository,
  ExportSheetRepository,
  ExportStatementRepository,
  NotificationRepository,
  PushTokenRepository,
  TokenRepository,
  UserAccountRepository,
  UserArchiveRepository,
  UserRepository,
  UserStore,
  WebhookDeliveryRepository,
} from '@pfs/resource-store';
import type { ObjectStorage } from '@pfs/storage';
import type { Mailer } from '@pfs/mail';
import type { UserSlots } from '../delivery/user-slots';

/** The store as the worker reaches it: every repository, built once (dependencies.ts). */
export interface WorkerRepositories {
  /** The user contexts repositories take: `store.read(userId)`, `store.change(userId, work)`. */
  store: UserStore;
  exports: ExportRepository;
  /** The rows of an export's sheets (expenses, budgets, …). */
  exportSheets: ExportSheetRepository;
  /** The rows of an export's OFX statement. */
  exportStatements: ExportStatementRepository;
  /** The user_data and attachments archives' rows. */
  userArchives: UserArchiveRepository;
  notifications: NotificationRepository;
  pushTokens: PushTokenRepository;
  users: UserRepository;
  /** Work one worker at a time does (the sweeper). */
  locks: AdvisoryLocks;
  /** The account deletion job's: the user's rows, tokens and the applications they registered. */
  userAccounts: UserAccountRepository;
  tokens: TokenRepository;
  clients: ClientRepository;
  /** Imports and what they write (docs/imports.md). */
  imports: ImportRepository;
  accounts: AccountRepository;
  entries: EntryRepository;
  categories: CategoryRepository;
  tags: TagRepository;
  currencyRates: CurrencyRateRepository;
  /** Webhook deliveries and their attempts. */
  webhookDeliveries: WebhookDeliveryRepository;
}

/** What the export pipeline needs, and nothing more (tests build it with real parts). */
export interface PipelineDependencies {
  logger: Logger;
  repos: WorkerRepositories;
  storage: ObjectStorage;
  slots: UserSlots;
  mailer?: Mailer;
  /** Sends the push outbox's due pushes (absent: pushes wait for the scheduled job). */
  sendPushes?: () => Promise<number>;
  /** Lifetime of the file and its link. */
  ttlSeconds: number;
}
