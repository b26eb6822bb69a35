import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Repeating entries (docs/ledger.md, "Repeating entries"). A `repeats` row is one series: its RFC 5545 rule
 * and the entry template its occurrences are made from. Occurrences are ordinary entries carrying
 * `repeat_id` and `iteration`, so balances, sums and sync treat them like any entry.
 *
 * `next_iteration` counts the iterations already handled (created, or created and later deleted): the
 * materializer only ever creates iterations from there on, so an occurrence deleted alone never comes
 * back. `next_date` is the date of that next iteration (null once the rule is exhausted), which lets the
 * materializer find due series through an index instead of expanding every rule.
 *
 * The unique index covers live occurrences only: a series whose rule changes rewrites its occurrences,
 * and a deleted occurrence must not block the new one of the same number.
 */
export class CreateRepeats1763800600000 implements MigrationInterface {
  name = 'CreateRepeats1763800600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE repeats (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        rule jsonb NOT NULL,
        template jsonb NOT NULL,
        first_entry_id bigint,
        next_iteration integer NOT NULL DEFAULT 0,
        next_date date,
        deleted boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX repeats_user_idx ON repeats (user_id) WHERE NOT deleted`);
    await queryRunner.query(
      `CREATE INDEX repeats_due_idx ON repeats (next_date, id) WHERE NOT deleted AND next_date IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE entries ADD COLUMN repeat_id bigint REFERENCES repeats (id), ADD COLUMN iteration integer`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX entries_repeat_iteration_idx ON entries (repeat_id, iteration)
       WHERE repeat_id IS NOT NULL AND NOT deleted`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX entries_repeat_iteration_idx`);
    await queryRunner.query(`ALTER TABLE entries DROP COLUMN repeat_id, DROP COLUMN iteration`);
    await queryRunner.query(`DROP TABLE repeats`);
  }
}
