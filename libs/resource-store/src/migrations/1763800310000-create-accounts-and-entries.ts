import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger: accounts and their entries, with the columns every synced resource has (docs/conventions.md):
 * user_id, created_at, modified_at, change_seq, deleted, extra.
 *
 * Amounts are `numeric` (exact). An account's balance is `initial_balance + entries_total`; `entries_total`
 * is changed by the same transaction that writes an entry (an atomic `+ delta` under the row lock), so it is
 * right whatever order writes commit in. Each entry keeps `account_amount`, its amount converted with its own
 * stored rate and rounded to the account's currency: the balance is the exact sum of those.
 */
export class CreateAccountsAndEntries1763800310000 implements MigrationInterface {
  name = 'CreateAccountsAndEntries1763800310000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        parent_id bigint REFERENCES accounts (id),
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        type text NOT NULL DEFAULT 'custom',
        currency char(3) NOT NULL,
        initial_balance numeric(30, 9) NOT NULL DEFAULT 0,
        entries_total numeric(30, 9) NOT NULL DEFAULT 0,
        credit_limit numeric(30, 9),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'archived')),
        sort_order integer NOT NULL DEFAULT 0,
        goal jsonb,
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`CREATE INDEX accounts_user_sync_idx ON accounts (user_id, change_seq, id)`);
    await queryRunner.query(`
      CREATE TABLE entries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id bigint NOT NULL REFERENCES accounts (id),
        category_id bigint REFERENCES categories (id),
        amount numeric(30, 9) NOT NULL,
        currency char(3) NOT NULL,
        rate numeric(30, 12) NOT NULL CHECK (rate > 0),
        main_rate numeric(30, 12),
        fixed boolean NOT NULL DEFAULT false,
        account_amount numeric(30, 9) NOT NULL,
        date date NOT NULL,
        description text,
        tag_ids bigint[] NOT NULL DEFAULT '{}',
        location jsonb,
        reminders jsonb,
        completed boolean NOT NULL DEFAULT false,
        transaction_id bigint REFERENCES entries (id),
        extra jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL,
        change_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      )`);
    // List pages, keyset cursors and since-sync (the layer orders by change_seq, id).
    await queryRunner.query(`CREATE INDEX entries_user_sync_idx ON entries (user_id, change_seq, id)`);
    // from/to (a month) and sums by day.
    await queryRunner.query(`CREATE INDEX entries_user_date_idx ON entries (user_id, date)`);
    // A month of one category.
    await queryRunner.query(
      `CREATE INDEX entries_user_category_date_idx ON entries (user_id, category_id, date)`,
    );
    await queryRunner.query(`CREATE INDEX entries_account_idx ON entries (account_id)`);
    await queryRunner.query(`CREATE INDEX entries_tags_idx ON entries USING gin (tag_ids)`);
    await queryRunner.query(
      `CREATE INDEX entries_transaction_idx ON entries (transaction_id) WHERE transaction_id IS NOT NULL`,
    );
    // Idempotency-Key of POST requests: the first result per user and key, kept until expires_at.
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        key text NOT NULL,
        request_hash text NOT NULL,
        status integer,
        headers jsonb,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
    await queryRunner.query(`DROP TABLE entries`);
    await queryRunner.query(`DROP TABLE accounts`);
  }
}
