import { dataSize } from '../measure';
import type { BenchSuite } from '../bench-suite';
import { seedLedger } from './entries-seed';

const FULL_SIZE = 1_000_000;
const QUICK_SIZE = 20_000;
const BUDGETS = 200;

/**
 * Budgets over the ledger at scale: the 1,000,000-entry user (BENCH_QUICK=1: 20,000) gets 200 budgets
 * (monthly, weekly with rollover, delta; most filtered by a category, some by an excluded category), then:
 * a page of 200 budgets for one month (every figure of the page comes from one grouped statement: each
 * iteration and the 6 before it, 1,400 date windows), the same at one iteration per budget over a quarter,
 * one budget, and /me/summary with its overall budget.
 */
export const budgetsSuite: BenchSuite = {
  name: 'budgets',
  async run(context) {
    const seed = await seedLedger(context, dataSize(context.quick, FULL_SIZE, QUICK_SIZE));
    const { rows } = await context.pg.query(`SELECT count(*)::int AS count FROM budgets WHERE user_id = $1`, [
      seed.userId,
    ]);
    if (rows[0].count < BUDGETS) {
      await context.pg.query(
        `INSERT INTO budgets (user_id, name, type, limit_amount, delta, currency, frequency, start_date, rollover,
                              category_ids, excluded_category_ids, sort_order, modified_at, change_seq)
         SELECT $1, 'budget ' || n, CASE WHEN n % 10 = 0 THEN 'delta' ELSE 'regular' END,
                CASE WHEN n % 10 = 0 THEN NULL ELSE 500 + n END, CASE WHEN n % 10 = 0 THEN 25 END, 'EUR',
                CASE WHEN n % 4 = 0 THEN 'weekly' ELSE 'monthly' END, DATE '2016-01-01', n % 4 = 0,
                CASE WHEN n % 5 = 0 THEN '{}'::bigint[] ELSE ARRAY[($2::bigint[])[1 + n % 12]] END,
                CASE WHEN n % 5 = 0 THEN ARRAY[($2::bigint[])[1 + n % 12]] ELSE '{}'::bigint[] END,
                n, date_trunc('milliseconds', clock_timestamp()), n
         FROM generate_series(1, $3) n`,
        [seed.userId, seed.categories, BUDGETS - rows[0].count],
      );
      await context.pg.query('ANALYZE budgets');
    }
    const headers = { authorization: seed.auth };
    const api = context.apiUrl;
    const scale = `${seed.entries / 1000}k entries, ${BUDGETS} budgets`;
    const month = { url: `${api}/budgets?from=2024-03-01&to=2024-03-31&per_page=200`, headers };
    await context.measure({
      ...month,
      name: `GET /budgets month, page of 200 (${scale}) latency`,
      connections: 1,
      target: { kind: 'p99', maxMs: 50 },
    });
    await context.measureBesideReplay({
      ...month,
      name: `GET /budgets month, page of 200 (${scale})`,
      connections: 16,
    });
    await context.measure({
      name: `GET /budgets quarter, one iteration each (${scale}) latency`,
      url: `${api}/budgets?from=2024-01-01&to=2024-03-31&per_page=200&one_iteration_only=true`,
      headers,
      connections: 1,
    });
    const list = await fetch(`${api}/budgets?from=2024-03-01&to=2024-03-31&per_page=10`, { headers });
    const [first] = (await list.json()) as Array<{ id: string }>;
    await context.measure({
      name: `GET /budgets/{id} (${scale}) latency`,
      url: `${api}/budgets/${first.id}`,
      headers,
      connections: 1,
    });
    const summary = { url: `${api}/me/summary?from=2024-03-01&to=2024-03-31`, headers };
    await context.measure({
      ...summary,
      name: `GET /me/summary month with budget (${scale}) latency`,
      connections: 1,
      target: { kind: 'p99', maxMs: 50 },
    });
    await context.measureBesideReplay({
      ...summary,
      name: `GET /me/summary month with budget (${scale})`,
      connections: 16,
    });
  },
};
