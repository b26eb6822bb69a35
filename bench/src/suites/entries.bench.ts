import type { BenchSuite } from '../bench-suite';
import { seedLedger } from './entries-seed';

const FULL_SIZE = 1_000_000;
const QUICK_SIZE = 20_000;

/**
 * The ledger at scale: one user with 1,000,000 entries (BENCH_QUICK=1: 20,000). Measures a page of 200,
 * a filtered month (one category), a since-sync returning 100 changes, and POST of single entries.
 */
export const entriesSuite: BenchSuite = {
  name: 'entries',
  async run(context) {
    const seed = await seedLedger(context, context.quick ? QUICK_SIZE : FULL_SIZE);
    const headers = { authorization: seed.auth };
    const api = context.apiUrl;

    await context.measure({
      name: 'GET /entries (page of 200)',
      url: `${api}/entries?per_page=200`,
      headers,
    });
    await context.measure({
      name: 'GET /entries (month + category)',
      url: `${api}/entries?from=2024-03-01&to=2024-03-31&categories=${seed.categories[3]}`,
      headers,
    });

    // since-sync: a watermark, then exactly 100 changes, then the same since asked again and again.
    const first = await fetch(`${api}/entries?per_page=10`, { headers });
    const since = encodeURIComponent(first.headers.get('service-modified')!);
    const batch = Array.from({ length: 100 }, (_, index) => ({
      amount: -(index + 1),
      currency: { code: 'EUR' },
      date: '2025-05-09',
      account: seed.accounts[0],
      category: seed.categories[0],
    }));
    const created = await fetch(`${api}/entries`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    if (created.status !== 201)
      throw new Error(`seeding 100 changes failed: ${created.status} ${await created.text()}`);
    const check = await fetch(`${api}/entries?since=${since}`, { headers });
    context.note(
      'since-sync rows returned',
      `${((await check.json()) as unknown[]).length} (X-Total-Count ${check.headers.get('x-total-count')})`,
    );
    await context.measure({
      name: 'GET /entries?since= (100 changes)',
      url: `${api}/entries?since=${since}`,
      headers,
    });

    await context.measure({
      name: 'POST /entries (single entry)',
      url: `${api}/entries`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ...batch[0], desc: 'bench' }),
    });
  },
};
