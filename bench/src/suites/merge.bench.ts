import { dataSize } from '../measure';
import type { BenchSuite } from '../bench-suite';

const FULL_SIZE = 200_000;
const QUICK_SIZE = 10_000;

/**
 * `POST /accounts/merge` of one-currency accounts at scale: a fresh user whose account holds 200,000 entries
 * (BENCH_QUICK=1: 10,000) merged into a second account. One UPDATE moves the entries; what the figure
 * follows is the revision log, written 1,000 rows per statement. Prints the duration and rows a second.
 */
export const mergeSuite: BenchSuite = {
  name: 'merge',
  async run(context) {
    const size = dataSize(context.quick, FULL_SIZE, QUICK_SIZE);
    const user = await context.createUser();
    const account = async (name: string) =>
      (
        await context.pg.query(
          `INSERT INTO accounts (user_id, name, currency, modified_at, change_seq) VALUES ($1, $2, 'EUR', now(), 0)
           RETURNING id::text`,
          [user.userId, name],
        )
      ).rows[0].id as string;
    const [source, target] = [await account('Source'), await account('Target')];
    await context.pg.query(
      `INSERT INTO entries (user_id, account_id, amount, currency, rate, account_amount, date, modified_at, change_seq)
       SELECT $1, $2, -1, 'EUR', 1, -1, DATE '2020-01-01' + (g % 1000)::int, now(), g FROM generate_series(1, $3::int) g`,
      [user.userId, source, size],
    );
    await context.pg.query(
      `UPDATE accounts SET entries_total = -$2::numeric, entries_count = $2 WHERE id = $1`,
      [source, size],
    );
    await context.pg.query(
      `INSERT INTO user_sync_state (user_id, change_seq) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING`,
      [user.userId, size + 1],
    );
    const started = performance.now();
    const answer = await fetch(`${context.apiUrl}/accounts/merge`, {
      method: 'POST',
      headers: { authorization: user.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ accounts: [source], account: target }),
    });
    const seconds = (performance.now() - started) / 1000;
    if (answer.status !== 204) throw new Error(`merge answered ${answer.status}: ${await answer.text()}`);
    context.note(
      `POST /accounts/merge, ${size / 1000}k entries of one currency`,
      `${seconds.toFixed(1)} s (${Math.round(size / seconds)} entries/s)`,
    );
  },
};
