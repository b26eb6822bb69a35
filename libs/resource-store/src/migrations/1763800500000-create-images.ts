import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Images (receipts, photos, PDFs) and the entries' references to them (docs/images.md). Images have the
 * columns of every synced resource (docs/conventions.md). `storage_prefix` is the folder of the stored
 * files (`images/<user>/<random>`): random so the files can be written before the row exists, and never
 * reused, so a file's URL always serves the same bytes (strong ETags, immutable caching).
 */
export class CreateImages1763800500000 implements MigrationInterface {
  name = 'CreateImages1763800500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE images (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('image', 'pdf')),
        status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'uploaded', 'error', 'deleting')),
        filename text,
        size bigint,
        content_type text NOT NULL,
        storage_prefix text NOT NULL,
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`CREATE INDEX images_user_sync_idx ON images (user_id, change_seq, id)`);
    // A constant default: Postgres adds the column without rewriting the table.
    await queryRunner.query(`ALTER TABLE entries ADD COLUMN image_ids bigint[] NOT NULL DEFAULT '{}'`);
    // Deleting an image finds the user's entries holding it; few entries have images, so the index is small.
    await queryRunner.query(
      `CREATE INDEX entries_with_images_idx ON entries (user_id) WHERE image_ids <> '{}'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX entries_with_images_idx`);
    await queryRunner.query(`ALTER TABLE entries DROP COLUMN image_ids`);
    await queryRunner.query(`DROP TABLE images`);
  }
}
