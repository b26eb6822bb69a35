import type { ApiModule } from './api-module';
import { accountsModule } from './accounts/accounts.module';
import { currenciesModule } from './currencies/currencies.module';
import { entriesModule } from './entries/entries.module';
import { categoriesModule } from './categories/categories.module';
import { meModule } from './me/me.module';
import { reportsModule } from './reports/reports.module';
import { locationsModule } from './locations/locations.module';
import { rateLimitModule } from './rate-limit/rate-limit.module';
import { tagsModule } from './tags/tags.module';
import { exportsModule } from './exports/exports.module';
import { notificationsModule } from './notifications/notifications.module';
import { pushModule } from './push/push.module';
import { imagesModule } from './images/images.module';
import { importsModule } from './imports/imports.module';
import { budgetsModule } from './budgets/budgets.module';
import { webhooksModule } from './webhooks/webhooks.module';
import { repeatsModule } from './repeats/repeats.module';

export type { ApiModule } from './api-module';

/**
 * Every module of the API. Their order changes no answer: routes are mounted literal paths first, and the
 * documents follow published.ts (test/integration/contract/module-order.test.ts checks both).
 */
export const apiModules: ApiModule[] = [
  rateLimitModule,
  meModule,
  reportsModule,
  categoriesModule,
  tagsModule,
  accountsModule,
  locationsModule,
  entriesModule,
  currenciesModule,
  exportsModule,
  notificationsModule,
  pushModule,
  imagesModule,
  budgetsModule,
  webhooksModule,
  importsModule,
  repeatsModule,
];
