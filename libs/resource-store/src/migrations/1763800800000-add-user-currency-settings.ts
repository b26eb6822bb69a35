import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What `PUT /me` main-currency changes keep (docs/ledger.md, "Main currency changes"):
 * - `users.recent_currencies`: the previous main currencies, most recent first (GET /me `currency.recent`);
 * - `users.custom_rates`: the user's custom exchange rates `[{code, reference_currency, rate, fixed}]`
 *   (units of reference_currency per 1 code), which replace the ECB history for that pair in main_rate and
 *   sums. Kept on the users row: GET /me and every entry list read them with the main currency in one read.
 * - `pfs_round_half_even(value, places)`: the money rounding rule (docs/money.md) in SQL, so a million
 *   entries can be re-rated in one statement with exactly the result decimal.js gives.
 */
export class AddUserCurrencySettings1763800800000 implements MigrationInterface {
  name = 'AddUserCurrencySettings1763800800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE users
        ADD COLUMN recent_currencies text[] NOT NULL DEFAULT '{}',
        ADD COLUMN custom_rates jsonb NOT NULL DEFAULT '[]'`);
    // Half-way cases (the shifted value's fraction is exactly .5) go to the even neighbour; all others
    // round to nearest, which is what round() does for them.
    await queryRunner.query(`
      CREATE FUNCTION pfs_round_half_even(value numeric, places integer) RETURNS numeric
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT round(CASE
          WHEN abs(value * power(10::numeric, places) - trunc(value * power(10::numeric, places))) = 0.5
            THEN (trunc(value * power(10::numeric, places))
                  + CASE WHEN mod(trunc(value * power(10::numeric, places)), 2) = 0 THEN 0 ELSE sign(value) END)
                 / power(10::numeric, places)
          ELSE round(value, places)
        END, places)
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION pfs_round_half_even(numeric, integer)`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN custom_rates, DROP COLUMN recent_currencies`);
  }
}
