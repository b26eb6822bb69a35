import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each account keeps how many live entries it has, changed by the same transaction that writes an entry
 * (like `entries_total`). The sum over a user's accounts is the total of an unfiltered `GET /entries`,
 * so X-Total-Count never needs `count(*)` over a million rows.
 */
export class AddAccountEntriesCount1763800320000 implements MigrationInterface {
  name = 'AddAccountEntriesCount1763800320000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE accounts ADD COLUMN entries_count bigint NOT NULL DEFAULT 0`);
    await queryRunner.query(
      `UPDATE accounts a SET entries_count = (SELECT count(*) FROM entries e WHERE e.account_id = a.id AND NOT e.deleted)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE accounts DROP COLUMN entries_count`);
  }
}
