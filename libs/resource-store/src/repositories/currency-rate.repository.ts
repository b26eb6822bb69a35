import type { ReferenceRate } from '@pfs/money';
import { DataSource, EntityManager } from 'typeorm';

/** Rows per INSERT: big enough to import the ECB history in about 50 statements, small enough for one packet. */
const BATCH_SIZE = 5_000;
/** Serialises concurrent imports (two API processes starting on an empty table). */
const IMPORT_LOCK_KEY = 7_310_420_300;

export interface RateImportResult {
  days: number;
  rates: number;
}

/** The `currency_rates` table: EUR reference rates per currency and business day. */
export class CurrencyRateRepository {
  constructor(private readonly source: DataSource | EntityManager) {}

  async count(): Promise<number> {
    const [row] = await this.source.query(`SELECT count(*)::int AS count FROM currency_rates`);
    return row.count;
  }

  /** The newest day with a stored rate (YYYY-MM-DD), or undefined when the table is empty. */
  async latestDate(): Promise<string | undefined> {
    const [row] = await this.source.query(
      `SELECT to_char(max(date), 'YYYY-MM-DD') AS latest FROM currency_rates`,
    );
    return row.latest ?? undefined;
  }

  /**
   * Upserts every rate of the days given (a stream from `parseEcbRates`) in one transaction: a malformed
   * file changes nothing. A newer download of the same file just adds the days it did not have.
   */
  async importRates(days: AsyncIterable<ReferenceRate[]>): Promise<RateImportResult> {
    const manager = this.source instanceof DataSource ? this.source.manager : this.source;
    return manager.transaction(async (transaction) => {
      await transaction.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
      let batch: ReferenceRate[] = [];
      const result = { days: 0, rates: 0 };
      for await (const day of days) {
        result.days += 1;
        result.rates += day.length;
        batch.push(...day);
        if (batch.length >= BATCH_SIZE) {
          await insertBatch(transaction, batch);
          batch = [];
        }
      }
      if (batch.length) await insertBatch(transaction, batch);
      return result;
    });
  }

  /** Every stored rate, for building the in-memory rate table at boot. */
  async listAll(): Promise<ReferenceRate[]> {
    const rows: { currency: string; date: string; rate: string }[] = await this.source.query(
      `SELECT currency, to_char(date, 'YYYY-MM-DD') AS date, rate::text AS rate FROM currency_rates`,
    );
    return rows;
  }
}

async function insertBatch(manager: EntityManager, rates: ReferenceRate[]): Promise<void> {
  await manager.query(
    `INSERT INTO currency_rates (currency, date, rate)
     SELECT * FROM unnest($1::char(3)[], $2::date[], $3::numeric[])
     ON CONFLICT (currency, date) DO UPDATE SET rate = EXCLUDED.rate`,
    [rates.map((rate) => rate.currency), rates.map((rate) => rate.date), rates.map((rate) => rate.rate)],
  );
}
