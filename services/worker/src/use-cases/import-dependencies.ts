import type { Logger } from '@pfs/logger';
import type { RateSource } from '@pfs/money';
import type {
  AccountRepository,
  ImportError,
  ImportRecord,
  CategoryRepository,
  EntryRepository,
  ImportRepository,
  TagRepository,
  UserStore,
} from '@pfs/resource-store';
import type { ObjectStorage } from '@pfs/storage';

/** What the import pipeline needs (dependencies.ts builds it; tests build it with real parts). */
export interface ImportDependencies {
  logger: Logger;
  repos: {
    store: UserStore;
    imports: ImportRepository;
    accounts: AccountRepository;
    entries: EntryRepository;
    categories: CategoryRepository;
    tags: TagRepository;
  };
  storage: ObjectStorage;
  /** The ECB reference rates, loaded on first use (only rows in another currency than the account's need them). */
  rates(): Promise<RateSource>;
}

/** Rows written in one change: one transaction, one progress update, resumable after it. */
export const IMPORT_BATCH_ROWS = 500;

/** A permanent failure with where it happened: the import ends in `error` at once (no retry helps). */
export class ImportFailure extends Error {
  constructor(readonly detail: ImportError) {
    super(detail.reason);
    this.name = 'ImportFailure';
  }
}

/** A finished import's file is not needed any more (the import keeps its name and size). */
export async function removeFile(deps: ImportDependencies, record: ImportRecord): Promise<void> {
  if (!record.storageKey) return;
  await deps.storage
    .delete(record.storageKey)
    .catch((error: unknown) =>
      deps.logger.warn({ err: error, key: record.storageKey }, 'could not remove an import file'),
    );
}
