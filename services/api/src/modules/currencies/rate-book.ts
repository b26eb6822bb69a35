import type { Logger } from '@pfs/logger';
import { FoundRate, parseEcbRates, RateSource, RateTable, SHIPPED_RATES_FILE } from '@pfs/money';
import type { CurrencyRateRepository } from '@pfs/resource-store';
import { createReadStream } from 'node:fs';

/**
 * The EUR reference rates the API converts with, held in memory. At boot, `load()` imports the ECB history
 * shipped with the code when the table lacks it (rates are never fetched over the network); the table
 * itself (about 200,000 rates, most of a second to read) is loaded by `ready()`, which routes that convert
 * await, and which boot starts in the background outside tests. `rates:import` adds newer files; `reload()`
 * (or a restart) picks them up.
 */
export class RateBook implements RateSource {
  private table = new RateTable([]);
  private loadedAt?: Date;
  private loading?: Promise<void>;

  constructor(
    private readonly repository: CurrencyRateRepository,
    private readonly logger?: Logger,
  ) {}

  /**
   * Imports the shipped history when the table does not yet hold its latest day (first start, or a release
   * shipping newer rates). Rates imported later by `rates:import` are kept. With `warm`, starts loading the
   * table into memory without waiting for it.
   */
  async load(options: { warm?: boolean } = {}): Promise<this> {
    const shippedUntil = await latestShippedDate();
    const storedUntil = await this.repository.latestDate();
    if (!storedUntil || storedUntil < shippedUntil) {
      const result = await this.repository.importRates(parseEcbRates(createReadStream(SHIPPED_RATES_FILE)));
      this.logger?.info(result, 'currency rates imported from the shipped ECB history');
    }
    if (options.warm)
      this.ready().catch((error) => this.logger?.warn({ err: error }, 'loading currency rates failed'));
    return this;
  }

  /** Resolves once the rates are in memory (loading them on the first call; a failed load is retried). */
  ready(): Promise<void> {
    this.loading ??= this.reload().catch((error) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  async reload(): Promise<void> {
    this.table = new RateTable(await this.repository.listAll());
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

/**
 * The newest day of the shipped file. The ECB lists days newest first, so that is the first data line;
 * reading stops there (the importer itself does not depend on the order).
 */
async function latestShippedDate(): Promise<string> {
  for await (const day of parseEcbRates(createReadStream(SHIPPED_RATES_FILE))) {
    if (day[0]) return day[0].date;
  }
  return '';
}
