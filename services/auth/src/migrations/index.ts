import type { MigrationSet } from '@pfs/resource-store';
import { CreateAuthTables1763800100000 } from './1763800100000-create-auth-tables';

/** The auth service's own tables, migrated after the resource schema they reference. */
export const authMigrations: MigrationSet = {
  name: 'auth',
  tableName: 'auth_migrations',
  migrations: [CreateAuthTables1763800100000],
};
