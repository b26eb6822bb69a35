import { allMigrationSets } from '@pfs/auth';
import { closeRedis, connectRedis, createRedisClient } from '@pfs/redis';
import { createDataSource, ensureDatabase, resourceEntities, runMigrations } from '@pfs/resource-store';
import { join } from 'node:path';
import { Pool } from 'pg';
import { BenchReport, createBenchContext } from './bench-context';
import { measure, Measurement } from './measure';
import { printReport } from './report';
import { startServiceProcess } from './service-process';
import { suites } from './suites';

const repoRoot = join(__dirname, '../..');

/**
 * `npm run bench [-- suite…]`: starts a bare Express server and the real API as separate processes on a
 * dedicated database (`pfs_bench`, kept between runs so large seeds are reused), then runs the suites.
 * Env: BENCH_DATABASE_URL, REDIS_URL, BENCH_SECONDS (per scenario, default 5), BENCH_QUICK=1 (small data).
 */
async function main() {
  const selected = process.argv.slice(2);
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pfs_bench';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    // BENCH_REDIS_KEY_PREFIX: the smoke test runs the bench under its own test run's prefix.
    REDIS_KEY_PREFIX: process.env.BENCH_REDIS_KEY_PREFIX ?? 'pfs-bench:',
    // Production's default level: the per-request log line is part of the cost measured.
    LOG_LEVEL: 'info',
    REQUIRE_HTTPS: 'false',
    // The limiter still runs on every request (its cost is part of the figure), but never refuses one.
    RATE_LIMIT_LIMIT: '1000000',
  };
  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl, allMigrationSets);
  const dataSource = createDataSource({
    url: databaseUrl,
    entities: resourceEntities,
    applicationName: 'pfs-bench',
  });
  await dataSource.initialize();
  const pg = new Pool({ connectionString: databaseUrl, max: 4 });
  const redis = createRedisClient({ url: redisUrl, keyPrefix: env.REDIS_KEY_PREFIX });
  await connectRedis(redis);

  const bare = await startServiceProcess(join(repoRoot, 'bench/dist/servers/bare-server.js'), {});
  // BENCH_CPU_PROF=<dir>: the API writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profileArgs = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  // BENCH_API_ENTRY: another build of the API (a copy of its dist/ inside it), for an A/B of a change.
  const api = await startServiceProcess(
    process.env.BENCH_API_ENTRY ?? join(repoRoot, 'services/api/dist/main.js'),
    { ...env, API_PORT: '0' },
    undefined,
    profileArgs,
  );
  const report: BenchReport = { rows: [], notes: [] };
  try {
    const baselineBefore = await measure({ name: 'bare Express GET /ping', url: `${bare.url}/ping` });
    const context = createBenchContext({
      apiUrl: api.url,
      bareUrl: bare.url,
      apiPid: api.child.pid!,
      barePid: bare.child.pid!,
      env,
      dataSource,
      pg,
      redis,
      report,
    });
    for (const suite of suites) {
      if (selected.length && !selected.includes(suite.name)) continue;
      process.stdout.write(`running ${suite.name}…\n`);
      await suite.run(context);
    }
    // The baseline is measured before and after the suites; their mean absorbs drift on a noisy machine.
    const baselineAfter = await measure({ name: 'bare Express GET /ping', url: `${bare.url}/ping` });
    const baseline: Measurement = {
      ...baselineBefore,
      requestsPerSecond: (baselineBefore.requestsPerSecond + baselineAfter.requestsPerSecond) / 2,
      p50Ms: (baselineBefore.p50Ms + baselineAfter.p50Ms) / 2,
      p99Ms: (baselineBefore.p99Ms + baselineAfter.p99Ms) / 2,
      requests: baselineBefore.requests + baselineAfter.requests,
    };
    report.notes.unshift({
      name: 'bare baseline before/after (req/s)',
      value: `${baselineBefore.requestsPerSecond.toFixed(0)} / ${baselineAfter.requestsPerSecond.toFixed(0)}`,
    });
    printReport(baseline, report);
  } finally {
    await api.stop();
    await bare.stop();
    await closeRedis(redis);
    await pg.end();
    await dataSource.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
