import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An entry's `main_rate` is shown for the user's current main currency, computed from the stored ECB rates
 * when read; a copy taken at write time goes stale when the main currency changes, so it is not kept.
 */
export class DropEntryMainRate1763800330000 implements MigrationInterface {
  name = 'DropEntryMainRate1763800330000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE entries DROP COLUMN main_rate`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE entries ADD COLUMN main_rate numeric(30, 12)`);
  }
}
