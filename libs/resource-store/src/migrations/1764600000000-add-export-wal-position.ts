import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `exports.wal_position`: the primary's WAL insert position when the export was requested (the column's
 * default, taken inside the request's transaction, so it is past every write the user had committed before).
 * The worker reads the export's rows from a replica only once the replica has replayed that far
 * (docs/scaling.md). Added without a default first, so existing rows stay NULL (no wait) and the table is not
 * rewritten; the default applies to new rows.
 */
export class AddExportWalPosition1764600000000 implements MigrationInterface {
  name = 'AddExportWalPosition1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE exports ADD COLUMN wal_position pg_lsn`);
    await queryRunner.query(
      `ALTER TABLE exports ALTER COLUMN wal_position SET DEFAULT pg_current_wal_insert_lsn()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE exports DROP COLUMN wal_position`);
  }
}
