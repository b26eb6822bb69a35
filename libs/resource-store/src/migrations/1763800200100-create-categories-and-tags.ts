import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Categories and tags, with the columns every synced resource has (docs/conventions.md): user_id,
 * created_at, modified_at (ms precision, the `modified` string), change_seq (the user's sequence at the
 * write), deleted (soft delete), extra; and the (user_id, change_seq, id) index that serves list pages,
 * keyset cursors and `since` sync.
 */
export class CreateCategoriesAndTags1763800200100 implements MigrationInterface {
  name = 'CreateCategoriesAndTags1763800200100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE categories (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        type text NOT NULL CHECK (type IN ('expense', 'income', 'system')),
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`CREATE INDEX categories_user_sync_idx ON categories (user_id, change_seq, id)`);
    await queryRunner.query(`
      CREATE TABLE tags (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        type text NOT NULL CHECK (type IN ('expense', 'income')),
        category_id bigint REFERENCES categories (id),
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`CREATE INDEX tags_user_sync_idx ON tags (user_id, change_seq, id)`);
    await queryRunner.query(
      `CREATE INDEX tags_category_idx ON tags (category_id) WHERE category_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE tags`);
    await queryRunner.query(`DROP TABLE categories`);
  }
}
