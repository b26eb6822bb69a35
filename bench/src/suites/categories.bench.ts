import type { BenchSuite } from '../bench-suite';

const CATEGORIES = 200;
const TAGS_PER_CATEGORY = 2;

/**
 * GET /categories on the conventions layer: one user with 200 categories and 400 tags (their counts are
 * computed per page), a full page of 200, a small page, and a since-sync with nothing new.
 */
export const categoriesSuite: BenchSuite = {
  name: 'categories',
  async run(context) {
    const user = await context.createUser();
    // One change number for the whole seed, claimed as a write transaction would.
    const [{ seq }] = await context.pg
      .query(
        `INSERT INTO user_sync_state (user_id, change_seq) VALUES ($1, 1)
         ON CONFLICT (user_id) DO UPDATE SET change_seq = user_sync_state.change_seq + 1 RETURNING change_seq AS seq`,
        [user.userId],
      )
      .then((result) => result.rows as Array<{ seq: string }>);
    await context.pg.query(
      `WITH c AS (
         INSERT INTO categories (user_id, name, type, modified_at, change_seq)
         SELECT $1, 'category ' || n, CASE WHEN n % 4 = 0 THEN 'income' ELSE 'expense' END,
                date_trunc('milliseconds', clock_timestamp()), $2
         FROM generate_series(1, $3) n RETURNING id, type)
       INSERT INTO tags (user_id, name, type, category_id, modified_at, change_seq)
       SELECT $1, 'tag ' || c.id || '-' || k, c.type, c.id, date_trunc('milliseconds', clock_timestamp()), $2
       FROM c, generate_series(1, $4) k`,
      [user.userId, seq, CATEGORIES, TAGS_PER_CATEGORY],
    );
    const headers = { authorization: user.auth };
    const api = context.apiUrl;
    await context.measure({ name: 'GET /categories (page of 200)', url: `${api}/categories`, headers });
    await context.measure({
      name: 'GET /categories (per_page=10)',
      url: `${api}/categories?per_page=10`,
      headers,
    });
    const first = await fetch(`${api}/categories?per_page=10`, { headers });
    const since = encodeURIComponent(first.headers.get('service-modified')!);
    await context.measure({
      name: 'GET /categories?since= (no changes)',
      url: `${api}/categories?since=${since}`,
      headers,
    });
  },
};
