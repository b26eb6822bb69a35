import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What every synced resource relies on (docs/conventions.md):
 * - `user_sync_state`: one row per user holding the user's change sequence. Write transactions bump it
 *   first (the row lock orders them by commit), rows take the number, lists read it as their watermark.
 * - `resource_revisions`: the writable fields of each revision of each object, keyed by its `modified`,
 *   so a write sent with an older `modified` can be merged three-way (or refused as never issued).
 */
export class CreateSyncInfrastructure1763800200000 implements MigrationInterface {
  name = 'CreateSyncInfrastructure1763800200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE user_sync_state (
        user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        change_seq bigint NOT NULL DEFAULT 0,
        modified_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(`
      CREATE TABLE resource_revisions (
        kind text NOT NULL,
        object_id bigint NOT NULL,
        modified_at timestamptz NOT NULL,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        snapshot jsonb NOT NULL,
        PRIMARY KEY (kind, object_id, modified_at)
      )`);
    await queryRunner.query(`CREATE INDEX resource_revisions_user_idx ON resource_revisions (user_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE resource_revisions`);
    await queryRunner.query(`DROP TABLE user_sync_state`);
  }
}
