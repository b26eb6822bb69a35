import type { MigrationSet } from '../../run-migrations';
import { CreateAuthTables1763800100000 } from './1763800100000-create-auth-tables';
import { AddRecoveryCodesAndRotation1763800100001 } from './1763800100001-add-recovery-codes-and-rotation';
import { AccountLifecycle1764400000000 } from './1764400000000-account-lifecycle';
import { DynamicClientRegistration1764500000000 } from './1764500000000-dynamic-client-registration';

/** The auth service's own tables, migrated after the resource schema they reference. */
export const authMigrations: MigrationSet = {
  name: 'auth',
  tableName: 'auth_migrations',
  migrations: [
    CreateAuthTables1763800100000,
    AddRecoveryCodesAndRotation1763800100001,
    AccountLifecycle1764400000000,
    DynamicClientRegistration1764500000000,
  ],
};
