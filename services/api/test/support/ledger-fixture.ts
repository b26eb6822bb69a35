import { parseEcbRates, RateTable, ReferenceRate, SHIPPED_RATES_FILE } from '@pfs/money';
import {
  AccountRepository,
  createDataSource,
  EntryRepository,
  RepeatRepository,
  resourceEntities,
  UserRepository,
  UserStore,
} from '@pfs/resource-store';
import { uniqueEmail } from '@pfs/testing';
import { createReadStream } from 'node:fs';
import type { DataSource } from 'typeorm';
import type { LedgerDeps } from '../../src/ledger-deps';

let shippedRates: Promise<RateTable> | undefined;

/** The ECB history shipped with the code, parsed once per test file. */
export function loadShippedRates(): Promise<RateTable> {
  shippedRates ??= (async () => {
    const rates: ReferenceRate[] = [];
    for await (const day of parseEcbRates(createReadStream(SHIPPED_RATES_FILE))) rates.push(...day);
    return new RateTable(rates);
  })();
  return shippedRates;
}

export type LedgerFixture = LedgerDeps & { dataSource: DataSource; close(): Promise<void> };

/** Ledger use-case dependencies over this run's real database (and its data source, for test setup SQL). */
export async function openLedger(): Promise<LedgerFixture> {
  const dataSource: DataSource = createDataSource({
    url: process.env.DATABASE_URL!,
    entities: resourceEntities,
    poolSize: 12,
  });
  await dataSource.initialize();
  return {
    dataSource,
    store: new UserStore(dataSource),
    accounts: new AccountRepository(),
    entries: new EntryRepository(),
    repeats: new RepeatRepository(dataSource),
    users: new UserRepository(dataSource),
    rates: await loadShippedRates(),
    close: () => dataSource.destroy(),
  };
}

export async function createLedgerUser(deps: LedgerDeps, currency = 'EUR'): Promise<string> {
  return (await deps.users.create({ email: uniqueEmail('ledger'), currency })).id;
}

/** Categories and tags belong to another module; tests insert them directly with the common columns. */
export async function insertCategory(deps: LedgerFixture, userId: string, name = 'Food'): Promise<string> {
  const [row] = await deps.dataSource.query(
    `INSERT INTO categories (user_id, name, type, modified_at, change_seq) VALUES ($1, $2, 'expense', now(), 0) RETURNING id::text`,
    [userId, name],
  );
  return row.id;
}

export async function insertTag(deps: LedgerFixture, userId: string, name = 'lunch'): Promise<string> {
  const [row] = await deps.dataSource.query(
    `INSERT INTO tags (user_id, name, type, modified_at, change_seq) VALUES ($1, $2, 'expense', now(), 0) RETURNING id::text`,
    [userId, name],
  );
  return row.id;
}
