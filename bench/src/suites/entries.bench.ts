import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import type { Measurement } from '../measure';
import { LedgerSeed, seedLedger } from './entries-seed';

const FULL_SIZE = 1_000_000;
const QUICK_SIZE = 20_000;
/** The small user the `since` sync at scale is compared with: a sync's cost must follow the changes. */
const SMALL_SIZE = 1_000;

/**
 * The ledger at scale: one user with 1,000,000 entries (BENCH_QUICK=1: 20,000). Latency targets are
 * judged at 1 connection (p99 of a single client's requests), throughput at 10. Measures a page of 200,
 * a filtered month, a since-sync returning 100 changes (at scale and for a 1,000-entry user), and POST.
 */
export const entriesSuite: BenchSuite = {
  name: 'entries',
  async run(context) {
    const size = context.quick ? QUICK_SIZE : FULL_SIZE;
    const seed = await seedLedger(context, size);
    const small = await seedLedger(context, SMALL_SIZE);
    const headers = { authorization: seed.auth };
    const api = context.apiUrl;
    const scale = `${size / 1000}k entries`;

    const page = { url: `${api}/entries?per_page=200`, headers };
    await context.measure({
      ...page,
      name: `GET /entries page of 200 (${scale}) latency`,
      connections: 1,
      target: { kind: 'p99', maxMs: 50 },
    });
    await context.measure({
      ...page,
      name: `GET /entries page of 200 (${scale}) throughput`,
      connections: 10,
    });
    await context.measure({
      name: `GET /entries month + category (${scale}) latency`,
      url: `${api}/entries?from=2024-03-01&to=2024-03-31&categories=${seed.categories[3]}`,
      headers,
      connections: 1,
    });

    const atScale = await measureSince(context, seed, scale);
    const atSmall = await measureSince(context, small, `${SMALL_SIZE / 1000}k entries`);
    context.note(
      `since-sync of 100 changes, p50 at ${scale} / at ${SMALL_SIZE / 1000}k entries`,
      `${atScale.p50Ms.toFixed(1)} / ${atSmall.p50Ms.toFixed(1)} ms (x${(atScale.p50Ms / atSmall.p50Ms).toFixed(2)}; follows the changes when near 1)`,
    );

    await context.measure({
      name: 'POST /entries single entry throughput',
      url: `${api}/entries`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(entryBody(seed, 0, 'bench')),
      connections: 10,
    });
  },
};

function entryBody(seed: LedgerSeed, index: number, desc?: string) {
  return {
    amount: -(index + 1),
    currency: { code: 'EUR' },
    date: '2025-05-09',
    account: seed.accounts[0],
    category: seed.categories[0],
    desc,
  };
}

/** A watermark, then exactly 100 changes, then that `since` asked again and again by one client. */
async function measureSince(context: BenchContext, seed: LedgerSeed, label: string): Promise<Measurement> {
  const api = context.apiUrl;
  const headers = { authorization: seed.auth };
  const first = await fetch(`${api}/entries?per_page=10`, { headers });
  const since = encodeURIComponent(first.headers.get('service-modified')!);
  const created = await fetch(`${api}/entries`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(Array.from({ length: 100 }, (_, index) => entryBody(seed, index))),
  });
  if (created.status !== 201)
    throw new Error(`seeding 100 changes failed: ${created.status} ${await created.text()}`);
  const check = await fetch(`${api}/entries?since=${since}`, { headers });
  const returned = ((await check.json()) as unknown[]).length;
  if (returned !== 100) throw new Error(`since-sync at ${label} returned ${returned} rows, not 100`);
  return context.measure({
    name: `GET /entries?since= 100 changes (${label}) latency`,
    url: `${api}/entries?since=${since}`,
    headers,
    connections: 1,
  });
}
