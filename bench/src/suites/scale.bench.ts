import { accessTokenKey, generateToken, hashToken } from '@pfs/contracts';
import { closeRedis, connectRedis, createRedisClient, type ClusterNode } from '@pfs/redis';
import { startPgBouncer, startPrivateRedisCluster } from '@pfs/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_SCOPES_FOR_BENCH, type BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { measure, type Measurement } from '../measure';
import { startServiceProcess } from '../service-process';
import { entryBody } from './entries.bench';
import { type LedgerSeed, seedLedger } from './entries-seed';

const repoRoot = join(__dirname, '../../..');
const CONNECTIONS = 16;
/** Writers: each POST /entries takes its user's write lock, so the writes are spread over several users. */
const WRITERS = 8;

interface Store {
  name: string;
  env: Record<string, string>;
  clusterNodes: ClusterNode[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The introspection record the auth service would write, in the Redis the configuration's API reads. */
async function tokenIn(store: Store, context: BenchContext, userId: string): Promise<string> {
  const redis = createRedisClient({
    url: context.env.REDIS_URL,
    clusterNodes: store.clusterNodes,
    keyPrefix: context.env.REDIS_KEY_PREFIX,
  });
  try {
    await connectRedis(redis);
    const token = generateToken();
    const record = { sub: userId, scope: ALL_SCOPES_FOR_BENCH, kind: 'access', client_id: 'bench', exp: 0 };
    record.exp = Math.floor(Date.now() / 1000) + 86_400;
    await redis.set(accessTokenKey(hashToken(token)), JSON.stringify(record), 'EX', 86_400);
    return `Bearer ${token}`;
  } finally {
    await closeRedis(redis);
  }
}

/** Starts the API with API_WORKERS=`workers` and waits until every worker listens on the shared port. */
async function startApi(context: BenchContext, store: Store, workers: number) {
  const api = await startServiceProcess(join(repoRoot, 'services/api/dist/main.js'), {
    ...context.env,
    ...store.env,
    API_PORT: '0',
    API_WORKERS: String(workers),
    REPEAT_MATERIALIZE_INTERVAL_SECONDS: '0',
  });
  // Each worker logs "api listening" through its own buffered log, which may hold the line: wait for every
  // worker's line, or at most a minute after the first one (the port answers as soon as one worker listens).
  const deadline = Date.now() + 60_000;
  const listening = () => readFileSync(api.logFile, 'utf8').split('"msg":"api listening"').length - 1;
  while (listening() < workers && Date.now() < deadline) await sleep(100);
  return api;
}

interface Scenario {
  name: string;
  run(url: string, seconds?: number): Promise<Measurement>;
}

interface Callers {
  reader: string;
  writers: Array<{ auth: string; seed: LedgerSeed }>;
}

function scenarios(callers: Callers): Scenario[] {
  let cold = Math.floor(Math.random() * 1e9);
  return [
    {
      name: 'GET /me',
      run: (url, seconds) =>
        measure({
          name: 'GET /me',
          url: `${url}/me`,
          headers: { authorization: callers.reader },
          connections: CONNECTIONS,
          seconds,
        }),
    },
    {
      // Cold: a cache-busting parameter, so no stored page answers (entries.bench.ts).
      name: 'GET /entries page of 200',
      run: (url, seconds) =>
        measure({
          name: 'GET /entries page of 200',
          url: `${url}/entries?per_page=200`,
          headers: { authorization: callers.reader },
          connections: CONNECTIONS,
          seconds,
          requests: [
            {
              setupRequest: (request) => {
                cold += 1;
                return { ...request, path: `/entries?per_page=200&_=${cold}` };
              },
            },
          ],
        }),
    },
    {
      name: 'POST /entries',
      run: (url, seconds) =>
        measure({
          name: 'POST /entries',
          url: `${url}/entries`,
          method: 'POST',
          connections: CONNECTIONS,
          seconds,
          requests: callers.writers.map((writer) => ({
            method: 'POST',
            headers: { authorization: writer.auth, 'content-type': 'application/json' },
            body: JSON.stringify(entryBody(writer.seed, 0, 'scale')),
          })),
        }),
    },
  ];
}

/**
 * Scale-out (issue 15): the same three requests (authenticated GET /me, a cold page of 200 entries, POST
 * /entries spread over 8 users) at 16 connections against the API run as 1, 2 and 4 processes behind one port
 * (API_WORKERS, node:cluster), on one Redis and on a private three-master Redis Cluster, with Postgres direct
 * and through a private PgBouncer in transaction mode. Prints req/s per configuration and each one's factor
 * over one process. The load generator runs in this process and shares the machine's cores with the API.
 */
export const scaleSuite: BenchSuite = {
  name: 'scale',
  async run(context) {
    const workerCounts = context.quick ? [1, 2] : [1, 2, 4];
    const cluster = await startPrivateRedisCluster();
    const bouncer = await startPgBouncer({ poolSize: 20 });
    try {
      const direct = context.env.DATABASE_URL;
      const pooled = bouncer.url(new URL(direct).pathname.slice(1));
      const nodes = cluster.ports.map((port) => ({ host: '127.0.0.1', port }));
      const redisOf = (onCluster: boolean): Omit<Store, 'name'> =>
        onCluster
          ? { env: { REDIS_CLUSTER_NODES: cluster.nodes }, clusterNodes: nodes }
          : { env: {}, clusterNodes: [] };
      const stores: Store[] = [];
      for (const onCluster of [false, true])
        for (const viaBouncer of [false, true]) {
          // Quick (the smoke test): the two ends only.
          if (context.quick && onCluster !== viaBouncer) continue;
          const redis = redisOf(onCluster);
          stores.push({
            name: `${onCluster ? 'Redis Cluster' : 'one Redis'}, ${viaBouncer ? 'PgBouncer' : 'direct'}`,
            env: {
              ...redis.env,
              ...(viaBouncer ? { DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct } : {}),
            },
            clusterNodes: redis.clusterNodes,
          });
        }
      const seed = await seedLedger(context, 1_000, 'scale');
      const writers: LedgerSeed[] = [];
      for (let i = 0; i < WRITERS; i += 1) writers.push(await seedLedger(context, 1, `scale-writer-${i}`));
      for (const store of stores) {
        const callers: Callers = {
          reader: await tokenIn(store, context, seed.userId),
          writers: await Promise.all(
            writers.map(async (writer) => ({
              seed: writer,
              auth: await tokenIn(store, context, writer.userId),
            })),
          ),
        };
        const byScenario = new Map<string, number[]>();
        for (const workers of workerCounts) {
          const api = await startApi(context, store, workers);
          try {
            for (const scenario of scenarios(callers)) {
              await scenario.run(api.url, 1); // warm-up: JIT, pools, cached profile
              const result = await scenario.run(api.url);
              context.record({ ...result, name: `scale ${scenario.name} ×${workers} (${store.name})` });
              byScenario.set(scenario.name, [
                ...(byScenario.get(scenario.name) ?? []),
                result.requestsPerSecond,
              ]);
            }
          } finally {
            await api.stop();
          }
        }
        for (const [scenario, rates] of byScenario) {
          const figures = rates.map(
            (rate, i) =>
              `${workerCounts[i]} proc ${rate.toFixed(0)} req/s${i ? ` (×${(rate / rates[0]).toFixed(2)})` : ''}`,
          );
          context.note(`scale ${scenario} (${store.name})`, figures.join('; '));
        }
      }
    } finally {
      await bouncer.stop();
      await cluster.stop();
    }
  },
};
