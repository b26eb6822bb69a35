import { startPgBouncer, startPrivateRedisCluster } from '@pfs/testing';
import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { cpuSnapshot, cpuSplit } from '../load/cpu-split';
import { chosenGenerator, generateLoad, type Generator } from '../load/generate-load';
import type { LoadOptions } from '../load/load-options';
import { defaultSeconds } from '../measure';
import { entryBody } from './entries.bench';
import { type LedgerSeed, seedLedger } from './entries-seed';
import { startScaledApi } from './scale-api';
import { type Store, storeMatrix, tokenIn } from './scale-stores';

const CONNECTIONS = 16;
/** Writers: each POST /entries takes its user's write lock, so the writes are spread over several users. */
const WRITERS = 8;

interface Callers {
  reader: string;
  writers: Array<{ auth: string; seed: LedgerSeed }>;
}

/** The three requests, as load runs against `baseUrl`. */
function scenarios(callers: Callers, baseUrl: string, seconds: number): LoadOptions[] {
  const reader = { authorization: callers.reader };
  const common = { baseUrl, connections: CONNECTIONS, seconds };
  return [
    { ...common, name: 'GET /me', requests: [{ method: 'GET', path: '/me', headers: reader }] },
    {
      // Cold: a cache-busting parameter, so no stored page answers (entries.bench.ts).
      ...common,
      name: 'GET /entries page of 200',
      requests: [{ method: 'GET', path: '/entries?per_page=200', headers: reader }],
      uniqueQuery: '_',
    },
    {
      ...common,
      name: 'POST /entries',
      requests: callers.writers.map((writer) => ({
        method: 'POST',
        path: '/entries',
        headers: { authorization: writer.auth, 'content-type': 'application/json' },
        body: JSON.stringify(entryBody(writer.seed, 0, 'scale')),
      })),
    },
  ];
}

/** One store configuration with 1, 2 (and 4) API processes: a row per run, a note per scenario. */
async function runStore(
  context: BenchContext,
  store: Store,
  callers: Callers,
  workerCounts: number[],
  generator: Generator,
) {
  const rates = new Map<string, string[]>();
  const first = new Map<string, number>();
  for (const workers of workerCounts) {
    let api;
    try {
      api = await startScaledApi(context, store, workers);
    } catch (error) {
      // Reported, and the other configurations still run: the smoke test fails on the missing rows.
      context.note(`scale ×${workers} (${store.name}) FAILED`, (error as Error).message.split('\n')[0]);
      process.stderr.write(`${(error as Error).message}\n`);
      continue;
    }
    try {
      for (const load of scenarios(callers, api.url, defaultSeconds())) {
        await generateLoad(generator, { ...load, seconds: 1 }); // warm-up: JIT, pools, cached profile
        const before = cpuSnapshot();
        const result = await generateLoad(generator, load);
        const split = cpuSplit(before, cpuSnapshot(), api.child.pid!, result.requests);
        const label = `${load.name} ×${workers} (${store.name})`;
        context.record({ ...result, name: `scale ${label}` });
        context.note(`scale CPU ${label}`, split);
        const base = first.get(load.name) ?? result.requestsPerSecond;
        first.set(load.name, base);
        const factor =
          workers === workerCounts[0] ? '' : ` (×${(result.requestsPerSecond / base).toFixed(2)})`;
        const figure = `${workers} proc ${result.requestsPerSecond.toFixed(0)} req/s${factor}`;
        rates.set(load.name, [...(rates.get(load.name) ?? []), figure]);
      }
    } finally {
      await api.stop();
    }
  }
  for (const [scenario, figures] of rates)
    context.note(`scale ${scenario} (${store.name})`, figures.join('; '));
}

/**
 * Scale-out (issue 15): the same three requests (authenticated GET /me, a cold page of 200 entries, POST
 * /entries spread over 8 users) at 16 connections against the API run as 1, 2 and 4 processes behind one port
 * (API_WORKERS, node:cluster), on one Redis and on a private three-master Redis Cluster, with Postgres direct
 * and through a private PgBouncer in transaction mode: 12 configurations. Prints req/s per configuration,
 * each one's factor over one process, and where the CPU went during each run (API processes, load
 * generator, Redis, Postgres, the rest). The generator is wrk when installed (else autocannon, in this
 * process); either way it shares the machine's cores with the API. BENCH_QUICK: 1 and 2 processes, the two
 * ends of the store matrix.
 */
export const scaleSuite: BenchSuite = {
  name: 'scale',
  async run(context) {
    const workerCounts = context.quick ? [1, 2] : [1, 2, 4];
    const generator = chosenGenerator();
    context.note('scale load generator', generator);
    const cluster = await startPrivateRedisCluster();
    try {
      const bouncer = await startPgBouncer({ poolSize: 20 });
      try {
        const seed = await seedLedger(context, 1_000, 'scale');
        const writers: LedgerSeed[] = [];
        for (let i = 0; i < WRITERS; i += 1) writers.push(await seedLedger(context, 1, `scale-writer-${i}`));
        for (const store of storeMatrix(context, cluster, bouncer)) {
          const callers: Callers = {
            reader: await tokenIn(store, context, seed.userId),
            writers: await Promise.all(
              writers.map(async (writer) => ({
                seed: writer,
                auth: await tokenIn(store, context, writer.userId),
              })),
            ),
          };
          await runStore(context, store, callers, workerCounts, generator);
        }
      } finally {
        await bouncer.stop();
      }
    } finally {
      await cluster.stop();
    }
  },
};
