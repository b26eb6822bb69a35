export { createDataSource } from './data-source';
export type { CreateDataSourceOptions } from './data-source';
export { dropDatabase, ensureDatabase } from './ensure-database';
export { runMigrations } from './run-migrations';
export type { MigrationSet } from './run-migrations';
export { resourceMigrations } from './migrations';
export { UserEntity } from './entities/user.entity';
export { UserRepository } from './repositories/user.repository';
export type { NewUser, User } from './repositories/user.repository';

/** Entities of the resource schema, for services that open a data source over it. */
import { UserEntity as UserEntityForList } from './entities/user.entity';
export const resourceEntities = [UserEntityForList];
export { CurrencyRateRepository } from './repositories/currency-rate.repository';
export type { RateImportResult } from './repositories/currency-rate.repository';
