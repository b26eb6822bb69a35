import { parseEcbRates, RateTable, ReferenceRate, SHIPPED_RATES_FILE } from '@pfs/money';
import {
  AccountRepository,
  createDataSource,
  EntryRepository,
  resourceEntities,
  UserRepository,
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

/** Ledger use-case dependencies over this run's real database. */
export async function openLedger(): Promise<LedgerDeps & { close(): Promise<void> }> {
  const dataSource: DataSource = createDataSource({
    url: process.env.DATABASE_URL!,
    entities: resourceEntities,
    poolSize: 12,
  });
  await dataSource.initialize();
  return {
    dataSource,
    accounts: new AccountRepository(dataSource),
    entries: new EntryRepository(dataSource),
    users: new UserRepository(dataSource),
    rates: await loadShippedRates(),
    close: () => dataSource.destroy(),
  };
}

export async function createLedgerUser(deps: LedgerDeps, currency = 'EUR'): Promise<string> {
  return (await deps.users.create({ email: uniqueEmail('ledger'), currency })).id;
}

/** Categories and tags belong to another module; tests insert them directly with the common columns. */
export async function insertCategory(deps: LedgerDeps, userId: string, name = 'Food'): Promise<string> {
  const [row] = await deps.dataSource.query(
    `INSERT INTO categories (user_id, name, type, modified_at, change_seq) VALUES ($1, $2, 'expense', now(), 0) RETURNING id::text`,
    [userId, name],
  );
  return row.id;
}

export async function insertTag(deps: LedgerDeps, userId: string, name = 'lunch'): Promise<string> {
  const [row] = await deps.dataSource.query(
    `INSERT INTO tags (user_id, name, type, modified_at, change_seq) VALUES ($1, $2, 'expense', now(), 0) RETURNING id::text`,
    [userId, name],
  );
  return row.id;
}
