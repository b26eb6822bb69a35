import { accessTokenKey, generateToken, hashToken } from '@pfs/contracts';
import { ALL_SCOPES_FOR_BENCH, type BenchContext } from '../bench-context';

/** The seeded ledger user, reused across runs of the same size (seeding a million rows takes a while). */
export interface LedgerSeed {
  userId: string;
  auth: string;
  accounts: string[];
  categories: string[];
  entries: number;
}

const SEED_EMAIL = (size: number, owner: string) => `bench-${owner}-${size}@example.test`;
const BATCH = 100_000;
const CATEGORIES = 12;
const DAYS = 3_650;

/**
 * One user with `size` entries over ten years, 3 accounts and 12 categories, inserted by
 * `INSERT … SELECT generate_series` in batches of 100,000 (each row its own change sequence), then the
 * balances recomputed and the table vacuumed and analysed so plans are the steady-state ones.
 */
export async function seedLedger(
  context: BenchContext,
  size: number,
  /** Suites that change the seeded data use their own user. */
  owner = 'ledger',
): Promise<LedgerSeed> {
  const { pg } = context;
  const email = SEED_EMAIL(size, owner);
  const existing = await pg.query(`SELECT id::text FROM users WHERE email = $1`, [email]);
  let userId: string = existing.rows[0]?.id;
  if (!userId) {
    userId = (await pg.query(`INSERT INTO users (email) VALUES ($1) RETURNING id::text`, [email])).rows[0].id;
  }
  const auth = await issueToken(context, userId);
  const accounts = await ensureRows(context, userId, 'accounts', 3, (i) => [
    `INSERT INTO accounts (user_id, name, currency, modified_at, change_seq) VALUES ($1, $2, 'EUR', now(), 0) RETURNING id::text`,
    [userId, `Account ${i}`],
  ]);
  const categories = await ensureRows(context, userId, 'categories', CATEGORIES, (i) => [
    `INSERT INTO categories (user_id, name, type, modified_at, change_seq) VALUES ($1, $2, 'expense', now(), 0) RETURNING id::text`,
    [userId, `Category ${i}`],
  ]);
  const count = Number(
    (await pg.query(`SELECT count(*) FROM entries WHERE user_id = $1`, [userId])).rows[0].count,
  );
  if (count < size) {
    const started = Date.now();
    for (let from = count; from < size; from += BATCH) {
      const to = Math.min(size, from + BATCH) - 1;
      await pg.query(
        `INSERT INTO entries (user_id, account_id, category_id, amount, currency, rate, account_amount, date, description,
                              modified_at, change_seq)
         SELECT $1, ($2::bigint[])[1 + g % 3], ($3::bigint[])[1 + (g * 7) % ${CATEGORIES}], a, 'EUR', 1, a,
                DATE '2016-01-01' + (g * 37 % ${DAYS})::int, 'entry ' || g, now(), g + 1
         FROM generate_series($4::bigint, $5::bigint) g, LATERAL (SELECT round(((g * 7919) % 20000 - 15000) / 100.0, 2) AS a) x`,
        [userId, accounts, categories, from, to],
      );
    }
    await pg.query(
      `INSERT INTO user_sync_state (user_id, change_seq) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET change_seq = GREATEST(user_sync_state.change_seq, EXCLUDED.change_seq)`,
      [userId, size + 1],
    );
    await pg.query(
      `UPDATE accounts a SET entries_total = coalesce((SELECT sum(account_amount) FROM entries e WHERE e.account_id = a.id AND NOT e.deleted), 0),
         entries_count = (SELECT count(*) FROM entries e WHERE e.account_id = a.id AND NOT e.deleted)
       WHERE a.user_id = $1`,
      [userId],
    );
    context.note(
      `seed ${size} entries (INSERT … SELECT generate_series)`,
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  await pg.query('VACUUM ANALYZE entries');
  return { userId, auth, accounts, categories, entries: size };
}

async function ensureRows(
  context: BenchContext,
  userId: string,
  table: 'accounts' | 'categories',
  wanted: number,
  insert: (index: number) => [string, unknown[]],
): Promise<string[]> {
  const rows = await context.pg.query(
    `SELECT id::text FROM ${table} WHERE user_id = $1 AND NOT deleted ORDER BY id`,
    [userId],
  );
  const ids: string[] = rows.rows.map((row: { id: string }) => row.id);
  for (let index = ids.length; index < wanted; index += 1) {
    const [sql, params] = insert(index);
    ids.push((await context.pg.query(sql, params)).rows[0].id);
  }
  return ids;
}

/** An access token for an existing user: the introspection record the auth service would write. */
export async function issueToken(context: BenchContext, userId: string): Promise<string> {
  const token = generateToken();
  const record = {
    sub: userId,
    scope: ALL_SCOPES_FOR_BENCH,
    kind: 'access',
    client_id: 'bench',
    exp: Math.floor(Date.now() / 1000) + 86_400,
  };
  await context.redis.set(accessTokenKey(hashToken(token)), JSON.stringify(record), 'EX', 86_400);
  return `Bearer ${token}`;
}
