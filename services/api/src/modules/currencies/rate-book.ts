import type { Logger } from '@pfs/logger';
import { FoundRate, parseEcbRates, RateSource, RateTable, SHIPPED_RATES_FILE } from '@pfs/money';
import { CurrencyRateRepository } from '@pfs/resource-store';
import { createReadStream } from 'node:fs';
import type { DataSource } from 'typeorm';

/**
 * The EUR reference rates the API converts with, loaded from `currency_rates` into memory at boot.
 * On first start (empty table) the ECB history shipped with the code is imported; rates are never
 * fetched over the network. `rates:import` adds newer files; `reload()` (or a restart) picks them up.
 */
export class RateBook implements RateSource {
  private table = new RateTable([]);
  private loadedAt?: Date;

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger?: Logger,
  ) {}

  /**
   * Imports the shipped history when the table does not yet hold its latest day (first start, or a release
   * shipping newer rates), then loads every stored rate. Rates imported later by `rates:import` are kept.
   */
  async load(): Promise<this> {
    const repository = new CurrencyRateRepository(this.dataSource);
    const shippedUntil = await latestShippedDate();
    const storedUntil = await repository.latestDate();
    if (!storedUntil || storedUntil < shippedUntil) {
      const result = await repository.importRates(parseEcbRates(createReadStream(SHIPPED_RATES_FILE)));
      this.logger?.info(result, 'currency rates imported from the shipped ECB history');
    }
    await this.reload();
    return this;
  }

  async reload(): Promise<void> {
    this.table = new RateTable(await new CurrencyRateRepository(this.dataSource).listAll());
    this.loadedAt = new Date();
  }

  get lastLoaded(): Date | undefined {
    return this.loadedAt;
  }

  get currencies(): string[] {
    return this.table.currencies;
  }

  findRate(currency: string, date: string): FoundRate | undefined {
    return this.table.findRate(currency, date);
  }
}

/** The newest day of the shipped file (a streaming pass over about 7,000 lines). */
async function latestShippedDate(): Promise<string> {
  let latest = '';
  for await (const day of parseEcbRates(createReadStream(SHIPPED_RATES_FILE))) {
    if (day[0] && day[0].date > latest) latest = day[0].date;
  }
  return latest;
}
