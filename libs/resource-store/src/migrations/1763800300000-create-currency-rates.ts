import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * EUR reference rates (units of `currency` per 1 EUR), one row per currency and business day, as the ECB
 * publishes them. Filled from the CSV shipped in libs/money/data at first start or by `rates:import`;
 * never fetched over the network. The primary key serves "the rate on or before a date" lookups.
 */
export class CreateCurrencyRates1763800300000 implements MigrationInterface {
  name = 'CreateCurrencyRates1763800300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE currency_rates (
        currency char(3) NOT NULL,
        date date NOT NULL,
        rate numeric(24, 10) NOT NULL CHECK (rate > 0),
        PRIMARY KEY (currency, date)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE currency_rates`);
  }
}
