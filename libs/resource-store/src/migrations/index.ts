import type { MigrationSet } from '../run-migrations';
import { CreateUsers1763800000000 } from './1763800000000-create-users';
import { CreateSyncInfrastructure1763800200000 } from './1763800200000-create-sync-infrastructure';
import { CreateCategoriesAndTags1763800200100 } from './1763800200100-create-categories-and-tags';
import { CreateCurrencyRates1763800300000 } from './1763800300000-create-currency-rates';
import { CreateAccountsAndEntries1763800310000 } from './1763800310000-create-accounts-and-entries';
import { AddAccountEntriesCount1763800320000 } from './1763800320000-add-account-entries-count';
import { DropEntryMainRate1763800330000 } from './1763800330000-drop-entry-main-rate';
import { CreateExportsNotificationsPush1763800400000 } from './1763800400000-create-exports-notifications-push';
import { CreateImages1763800500000 } from './1763800500000-create-images';
import { CreateRepeats1763800600000 } from './1763800600000-create-repeats';
import { CreateBudgets1763800700000 } from './1763800700000-create-budgets';
import { AddUserCurrencySettings1763800800000 } from './1763800800000-add-user-currency-settings';
import { PushDeliveryOutbox1763800900000 } from './1763800900000-push-delivery-outbox';
import { IndexLocatedEntries1763800900100 } from './1763800900100-index-located-entries';
import { CreateWebhooks1764300000000 } from './1764300000000-create-webhooks';
import { AddExportWalPosition1764600000000 } from './1764600000000-add-export-wal-position';
import { WebhookImportEvents1764300100000 } from './1764300100000-webhook-import-events';
import { CreateImports1764200000000 } from './1764200000000-create-imports';
import { StoreEntryPresentedLines1764700000000 } from './1764700000000-store-entry-presented-lines';

export { presentedLine as entryPresentedLineBackfillSql } from './1764700000000-store-entry-presented-lines';

/** The resource schema, in order. Append new migrations; never edit one that has shipped. */
export const resourceMigrations: MigrationSet = {
  name: 'resources',
  tableName: 'resource_migrations',
  migrations: [
    CreateUsers1763800000000,
    CreateSyncInfrastructure1763800200000,
    CreateCategoriesAndTags1763800200100,
    CreateCurrencyRates1763800300000,
    CreateAccountsAndEntries1763800310000,
    AddAccountEntriesCount1763800320000,
    DropEntryMainRate1763800330000,
    CreateExportsNotificationsPush1763800400000,
    CreateImages1763800500000,
    CreateRepeats1763800600000,
    CreateBudgets1763800700000,
    AddUserCurrencySettings1763800800000,
    PushDeliveryOutbox1763800900000,
    IndexLocatedEntries1763800900100,
    CreateWebhooks1764300000000,
    AddExportWalPosition1764600000000,
    WebhookImportEvents1764300100000,
    CreateImports1764200000000,
    StoreEntryPresentedLines1764700000000,
  ],
};
