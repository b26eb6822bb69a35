import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `entries.presented_line`: the entry's line of a presented page of `GET /entries` (list-page.ts
 * `listPresentedPage`: `<change_seq> <id> <modified_at as epoch ms> <item>`), the item being the entry's final
 * JSON text (services/api entries.presenter.ts, `presentEntry` after `compact`, then JSON.stringify) as if the
 * entry were in its user's main currency (`"main_rate":1`); NULL for an entry Postgres cannot write byte for
 * byte (see `plain` below). A cold page of 200 then costs Postgres the index scan and one concatenation instead
 * of writing 200 texts of about 40 function calls each (1.4-1.9 ms of backend CPU a page, docs/bench.md issue 13).
 * The page uses the stored line only for an entry in the user's main currency now (the one user-dependent part);
 * any other entry goes through the API's general presenter.
 *
 * A BEFORE INSERT OR UPDATE trigger keeps the line right for every path that writes entries (single writes,
 * bulk updates, merges, imports, repairs, a main-currency change) without any of them knowing of it; its
 * DateStyle is pinned (the timestamps' text below is the ISO form). Existing rows are backfilled by rewriting
 * the table (`ALTER COLUMN … TYPE text USING`: no dead tuples, indexes rebuilt; 22 s for a million rows on the bench
 * machine at load 13, under an ACCESS EXCLUSIVE lock: entries can be neither read nor written meanwhile; see
 * docs/bench.md). The archive export leaves the column out (export-rows user-data-tables.ts `DERIVED_COLUMNS`).
 *
 * What "plain" means, and why each guard is there:
 * - No location, reminders or extra: jsonb prints `{"a": 1}` (spaces) and keeps `1.0`, JSON.stringify does not.
 * - No transfer, images or series: those are presented from other rows (the companion, the images, the series).
 * - Amounts a JSON number prints as the numeric's own digits: the presenter sends `Number(text)`, whose
 *   shortest form is the decimal itself when it has at most 15 significant digits (every such decimal has its
 *   own double) and is written without an exponent when it is 0 or between 1e-6 and 1e21. The amount columns
 *   have 9 decimals (below 1e6: at most 15 digits), the rate 12 (below 1e3). `trim_scale` drops the trailing
 *   zeros as the number's text does.
 * - Timestamps in years 1000-9999 (toISOString's four-digit years), written from the UTC text Postgres prints
 *   with the ISO DateStyle: `created` to the second, `modified` to the millisecond, both truncated, which is
 *   what the presenter keeps of the floored milliseconds.
 * Strings go through `to_json`, which escapes exactly the characters JSON.stringify escapes (text is valid
 * UTF-8: no lone surrogates). The API's test (entries-presented-page.test.ts) compares every field shape with
 * the general presenter. This text is this migration's own: a later change of the representation is a new
 * migration that replaces the function and rewrites the column.
 */
export class StoreEntryPresentedLines1764700000000 implements MigrationInterface {
  name = 'StoreEntryPresentedLines1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The rewrite takes about 22 s a million entries, and waits for the table's lock first: a statement_timeout
    // the role or database sets for the services (docs/scaling.md: 30 s behind PgBouncer) would cancel it on a
    // large table, failing every start that migrates. LOCAL: this migration's transaction only (poolers too).
    await queryRunner.query(`SET LOCAL statement_timeout = 0`);
    await queryRunner.query(`ALTER TABLE entries ADD COLUMN presented_line text`);
    await queryRunner.query(`
      CREATE FUNCTION entry_presented_line() RETURNS trigger LANGUAGE plpgsql SET datestyle = 'ISO, MDY' AS $$
      BEGIN
        NEW.presented_line := ${presentedLine('NEW.')};
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER entries_presented_line BEFORE INSERT OR UPDATE ON entries
      FOR EACH ROW EXECUTE FUNCTION entry_presented_line()`);
    await queryRunner.query(`SET LOCAL datestyle = 'ISO, MDY'`);
    await queryRunner.query(
      `ALTER TABLE entries ALTER COLUMN presented_line TYPE text USING ${presentedLine('')}`,
    );
    await queryRunner.query(`ANALYZE entries`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER entries_presented_line ON entries`);
    await queryRunner.query(`DROP FUNCTION entry_presented_line()`);
    await queryRunner.query(`ALTER TABLE entries DROP COLUMN presented_line`);
  }
}

/**
 * The SQL of an entry's presented line, or NULL when it is not plain, over the row's columns as `<row>column`:
 * `NEW.` in the trigger, bare in the backfill (exported for the test that the two write the same).
 */
export function presentedLine(row: string): string {
  const t = (column: string) => `${row}${column}`;
  const bool = (column: string) => `CASE WHEN ${t(column)} THEN 'true' ELSE 'false' END`;
  const modified = `(${t('modified_at')} AT TIME ZONE 'UTC')::text`;
  const created = `(${t('created_at')} AT TIME ZONE 'UTC')::text`;
  const plain = [
    `${t('location')} IS NULL`,
    `${t('reminders')} IS NULL`,
    `${t('extra')} IS NULL`,
    `${t('transaction_id')} IS NULL`,
    `${t('repeat_id')} IS NULL`,
    `cardinality(${t('image_ids')}) = 0`,
    ...[
      [t('amount'), '1000000'],
      [t('rate'), '1000'],
    ].map(
      ([column, below]) =>
        `${column} > -${below} AND ${column} < ${below} AND (${column} >= 0.000001 OR ${column} <= -0.000001 OR ${column} = 0)`,
    ),
    ...[t('created_at'), t('modified_at')].map(
      (column) => `${column} >= '1000-01-01 00:00:00+00' AND ${column} < '10000-01-01 00:00:00+00'`,
    ),
  ].join(' AND ');
  const line = [
    `${t('change_seq')}::text || ' ' || ${t('id')}::text`,
    `' ' || floor(extract(epoch FROM ${t('modified_at')}) * 1000)::text`,
    `' {"id":"' || ${t('id')}::text`,
    `'","amount":' || trim_scale(${t('amount')})::text`,
    `',"currency":{"code":' || to_json(${t('currency')})::text`,
    `',"rate":' || trim_scale(${t('rate')})::text`,
    `',"main_rate":1,"fixed":' || ${bool('fixed')}`,
    `'},"date":"' || left(${t('date')}::text, 10)`,
    `CASE WHEN ${t('description')} IS NULL THEN '"' ELSE '","desc":' || to_json(${t('description')})::text END`,
    `',"account":"' || ${t('account_id')}::text || '"'`,
    `CASE WHEN ${t('category_id')} IS NULL THEN '' ELSE ',"category":"' || ${t('category_id')}::text || '"' END`,
    `CASE WHEN cardinality(${t('tag_ids')}) = 0 THEN '' ELSE ',"tags":' || to_json(${t('tag_ids')}::text[])::text END`,
    `',"completed":' || ${bool('completed')}`,
    `',"created":"' || left(${created}, 10) || 'T' || substr(${created}, 12, 8)`,
    `'Z","modified":"' || CASE WHEN length(${modified}) = 19 THEN ${modified} || '.000' ELSE rpad(left(${modified}, 23), 23, '0') END`,
    `CASE WHEN ${t('deleted')} THEN '","deleted":true}' ELSE '"}' END`,
  ].join(' || ');
  return `CASE WHEN ${plain} THEN ${line} END`;
}
