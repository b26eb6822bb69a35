import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `/entries/locations` groups a user's entries that carry a location; most entries carry none, so a partial
 * index over the located ones keeps that read from scanning every entry of the user (a million at scale).
 */
export class IndexLocatedEntries1763800900100 implements MigrationInterface {
  name = 'IndexLocatedEntries1763800900100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX entries_user_located_idx ON entries (user_id) WHERE location IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX entries_user_located_idx`);
  }
}
