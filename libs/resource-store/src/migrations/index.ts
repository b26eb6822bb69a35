import type { MigrationSet } from '../run-migrations';
import { CreateUsers1763800000000 } from './1763800000000-create-users';
import { CreateCurrencyRates1763800300000 } from './1763800300000-create-currency-rates';

/** The resource schema, in order. Append new migrations; never edit one that has shipped. */
export const resourceMigrations: MigrationSet = {
  name: 'resources',
  tableName: 'resource_migrations',
  migrations: [
    CreateUsers1763800000000,
    CreateCurrencyRates1763800300000,
  ],
};
