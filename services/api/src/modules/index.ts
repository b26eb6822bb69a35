import type { ApiModule } from './api-module';
import { accountsModule } from './accounts/accounts.module';
import { currenciesModule } from './currencies/currencies.module';
import { entriesModule } from './entries/entries.module';
import { meLedgerModule } from './me/update-me.module';
import { categoriesModule } from './categories/categories.module';
import { groupSumsModule } from './entries/group-sums.module';
import { meModule } from './me/me.module';
import { rateLimitModule } from './rate-limit/rate-limit.module';
import { tagsModule } from './tags/tags.module';
import { exportsModule } from './exports/exports.module';
import { notificationsModule } from './notifications/notifications.module';
import { pushModule } from './push/push.module';
import { imagesModule } from './images/images.module';
import { budgetsModule } from './budgets/budgets.module';

export type { ApiModule } from './api-module';

/**
 * Every module of the API, mounted in this order. Append yours: one import above, one entry below.
 */
export const apiModules: ApiModule[] = [
  rateLimitModule,
  meModule,
  groupSumsModule,
  categoriesModule,
  tagsModule,
  accountsModule,
  entriesModule,
  currenciesModule,
  meLedgerModule,
  exportsModule,
  notificationsModule,
  pushModule,
  imagesModule,
  budgetsModule,
];
