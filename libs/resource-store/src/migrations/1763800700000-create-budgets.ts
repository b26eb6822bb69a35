import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Budgets (docs/budgets.md): a synced resource (user_id, created_at, modified_at, change_seq, deleted, extra;
 * docs/conventions.md). Only what the client writes is stored; each iteration's from/to, amount, planned,
 * rollover and (for delta and percent budgets) limit are computed at read from the entries, so they are
 * never stale. The six filter arrays keep the referenced ids even after those objects are deleted: the
 * budget then reports a `problem` instead of silently widening.
 */
export class CreateBudgets1763800700000 implements MigrationInterface {
  name = 'CreateBudgets1763800700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE budgets (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 300),
        type text NOT NULL CHECK (type IN ('regular', 'delta', 'percent')),
        limit_amount numeric(30, 9),
        delta numeric(30, 9),
        percent numeric(30, 9),
        currency char(3) NOT NULL,
        currency_rate numeric(30, 12),
        currency_fixed boolean NOT NULL DEFAULT false,
        frequency text NOT NULL CHECK (frequency IN ('one-time', 'daily', 'weekly', 'monthly', 'yearly')),
        interval smallint NOT NULL DEFAULT 1 CHECK (interval BETWEEN 1 AND 127),
        start_date date NOT NULL,
        end_date date,
        byday text,
        bymonthday text,
        bysetpos text,
        rollover boolean NOT NULL DEFAULT false,
        rollover_amount numeric(30, 9),
        sort_order integer NOT NULL DEFAULT 0,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'archived')),
        category_ids bigint[] NOT NULL DEFAULT '{}',
        excluded_category_ids bigint[] NOT NULL DEFAULT '{}',
        tag_ids bigint[] NOT NULL DEFAULT '{}',
        excluded_tag_ids bigint[] NOT NULL DEFAULT '{}',
        account_ids bigint[] NOT NULL DEFAULT '{}',
        excluded_account_ids bigint[] NOT NULL DEFAULT '{}',
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    // List pages, keyset cursors and since-sync; a user's budgets are few, so the per-user prefix also
    // serves the usage counts and the summary's budget lookup.
    await queryRunner.query(`CREATE INDEX budgets_user_sync_idx ON budgets (user_id, change_seq, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE budgets`);
  }
}
