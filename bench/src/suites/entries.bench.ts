import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { dataSize, defaultSeconds, measure, type Measurement } from '../measure';
import { PostgresCpu } from '../postgres-cpu';
import { cpuMillisOf } from '../service-process';
import { LedgerSeed, seedLedger } from './entries-seed';

const FULL_SIZE = 1_000_000;
const QUICK_SIZE = 20_000;
/** The small user the `since` sync at scale is compared with: a sync's cost must follow the changes. */
const SMALL_SIZE = 1_000;
/** As many connections as a user's apps would open at once (issue 13). */
const CONNECTIONS = 16;

/**
 * `measureBesideReplay`, plus the CPU time the API and the bare process each spent per request of their run
 * (/proc): a CPU-bound server's throughput is the inverse of it, and it barely moves with the machine's load,
 * so `bare CPU / API CPU` is the steadiest estimate of the row's share of its ceiling on a shared machine.
 */
async function besideReplayWithCpu(
  context: BenchContext,
  options: Parameters<BenchContext['measureBesideReplay']>[0],
): Promise<Measurement> {
  const [apiBefore, bareBefore] = [cpuMillisOf(context.apiPid), cpuMillisOf(context.barePid)];
  // The replay runs first, then the API's row: Postgres works only for the API's requests.
  const postgres = await PostgresCpu.begin(context.pg, 'pfs-api');
  const row = await context.measureBesideReplay(options);
  const requests = Math.max(row.requests, 1);
  const api = ((cpuMillisOf(context.apiPid) - apiBefore) * 1000) / requests;
  const bare = ((cpuMillisOf(context.barePid) - bareBefore) * 1000) / Math.max(row.ceiling?.requests ?? 0, 1);
  const database = ((await postgres.spentSince()) * 1000) / requests;
  context.note(
    `${options.name}: server CPU per request`,
    `API ${api.toFixed(0)} µs vs ceiling ${bare.toFixed(0)} µs = ${(bare / api).toFixed(3)}; Postgres ${database.toFixed(0)} µs more (API + Postgres vs ceiling ${(bare / (api + database)).toFixed(3)})`,
  );
  return row;
}

/**
 * The ledger at scale: one user with 1,000,000 entries (BENCH_QUICK=1: 20,000). Latency targets are
 * judged at 1 connection (p99 of a single client's requests), throughput at 16 beside the ceiling (bare Express
 * replaying the identical answer). Measures a page of 200 (cold and unchanged), a filtered month and a
 * since-sync returning 100 changes (at scale and for a 1,000-entry user). Writes are the `writes` suite.
 */
export const entriesSuite: BenchSuite = {
  name: 'entries',
  async run(context) {
    const size = dataSize(context.quick, FULL_SIZE, QUICK_SIZE);
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
    // Cold: every request a query never asked before, so no stored page can answer it: a cache-busting
    // parameter the API ignores (`_=<n>`, as jQuery's `cache: false` sends), which keeps the unfiltered page's
    // path (total from the per-account counts). One indexed query of 200 rows, presenting and serialising.
    let coldRequest = Math.floor(Math.random() * 1e9);
    await besideReplayWithCpu(context, {
      ...page,
      name: `GET /entries page of 200 (${scale}) cold`,
      connections: CONNECTIONS,
      requests: [
        {
          setupRequest: (request) => {
            coldRequest += 1;
            return { ...request, path: `/entries?per_page=200&_=${coldRequest}` };
          },
        },
      ],
      target: { kind: 'vsCeiling', min: 0.12 },
    });
    await besideReplayWithCpu(context, {
      ...page,
      name: `GET /entries page of 200 (${scale}) unchanged data`,
      connections: CONNECTIONS,
      target: { kind: 'vsCeiling', min: 0.5 },
    });
    await context.measure({
      name: `GET /entries month + category (${scale}) latency`,
      url: `${api}/entries?from=2024-03-01&to=2024-03-31&categories=${seed.categories[3]}`,
      headers,
      connections: 1,
    });

    const atScale = await measureSince(context, seed, scale);
    const atSmall = await measureSince(context, small, `${SMALL_SIZE / 1000}k entries`);
    // The mean, not the p50: autocannon's percentiles are whole milliseconds, and a since-sync of 100 changes
    // takes about one, so its p50 read 0 or 1 ms at either size (a ratio of 0/0 or x2 from rounding alone).
    for (const [figure, at] of [
      ['mean latency, 1 conn', [atScale.single, atSmall.single]],
      [`mean latency, ${CONNECTIONS} conn`, [atScale.loaded, atSmall.loaded]],
    ] as const) {
      const [large, small] = at.map(meanLatencyMs);
      context.note(
        `since-sync of 100 changes, ${figure}, at ${scale} / at ${SMALL_SIZE / 1000}k entries`,
        `${large.toFixed(2)} / ${small.toFixed(2)} ms (x${(large / small).toFixed(2)}; target <= x1.2)`,
      );
    }
    await noteInterleavedSince(context, atScale.request, atSmall.request, scale);
  },
};

/**
 * The same two since-syncs again in short alternating windows (large, small, small, large…), each pair's ratio
 * of mean latencies kept: a change of the machine's load between the two back-to-back rows above reads as a
 * change of the ratio, while within one pair both sizes see nearly the same load. The median of the pairs is
 * the figure to judge.
 */
async function noteInterleavedSince(
  context: BenchContext,
  large: SinceRequest,
  small: SinceRequest,
  scale: string,
): Promise<void> {
  const pairs = Number(process.env.BENCH_PAIRS ?? (context.quick ? 2 : 5));
  const seconds = defaultSeconds() / 2;
  for (const connections of [1, CONNECTIONS]) {
    const ratios: number[] = [];
    for (let pair = 0; pair < pairs; pair += 1) {
      const order = pair % 2 === 0 ? [large, small] : [small, large];
      const means = new Map<SinceRequest, number>();
      for (const request of order) {
        const row = await measure({ ...request, name: 'since interleaved', connections, seconds });
        if (row.errors > 0) throw new Error(`since-sync interleaved: ${row.errors} failed requests`);
        means.set(request, meanLatencyMs(row));
      }
      ratios.push(means.get(large)! / means.get(small)!);
    }
    ratios.sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)];
    context.note(
      `since-sync of 100 changes, mean latency ${scale} / ${SMALL_SIZE / 1000}k, ${connections} conn, ${pairs} interleaved pairs`,
      `x${median.toFixed(2)} median (x${ratios[0].toFixed(2)}-x${ratios[ratios.length - 1].toFixed(2)}; target <= x1.2)`,
    );
  }
}

export function entryBody(seed: LedgerSeed, index: number, desc?: string) {
  return {
    amount: -(index + 1),
    currency: { code: 'EUR' },
    date: '2025-05-09',
    account: seed.accounts[0],
    category: seed.categories[0],
    desc,
  };
}

/** A row's mean latency; from its throughput by Little's law when the generator gave none. */
function meanLatencyMs(row: Measurement): number {
  return row.meanMs ?? (row.connections * 1000) / row.requestsPerSecond;
}

type SinceRequest = { url: string; headers: Record<string, string> };

/** A watermark, then exactly 100 changes, then that `since` asked again and again by one client. */
async function measureSince(
  context: BenchContext,
  seed: LedgerSeed,
  label: string,
): Promise<{ single: Measurement; loaded: Measurement; request: SinceRequest }> {
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
  const request = { url: `${api}/entries?since=${since}`, headers };
  const single = await context.measure({
    ...request,
    name: `GET /entries?since= 100 changes (${label}) latency`,
    connections: 1,
  });
  const loaded = await context.measureBesideReplay({
    ...request,
    name: `GET /entries?since= 100 changes (${label})`,
    connections: CONNECTIONS,
  });
  return { single, loaded, request };
}
