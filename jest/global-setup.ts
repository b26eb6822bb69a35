import { ensureDatabase } from '../libs/resource-store/src/ensure-database';
import { resourceMigrations } from '../libs/resource-store/src/migrations';
import { runMigrations } from '../libs/resource-store/src/run-migrations';
import { authMigrations } from '../libs/resource-store/src/auth/migrations';
import { startPrivateRedisCluster } from '../libs/testing/src/redis-cluster';
import { newTestRunId, testDatabaseUrl } from './test-run';

/** Creates this run's database and migrates it once; workers inherit the environment set here. */
export default async function globalSetup(): Promise<void> {
  const runId = newTestRunId();
  const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const databaseUrl = testDatabaseUrl(baseUrl, runId);
  process.env.PFS_TEST_RUN_ID = runId;
  process.env.DATABASE_URL = databaseUrl;
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  process.env.REDIS_KEY_PREFIX = `pfs-test:${runId}:`;
  process.env.NODE_ENV = 'test';
  process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl, [resourceMigrations, authMigrations]);
  // The `redis-cluster` project's private Redis Cluster (three masters on loopback), stopped by the teardown.
  const cluster = await startPrivateRedisCluster();
  (globalThis as { pfsTestRedisCluster?: { stop(): Promise<void> } }).pfsTestRedisCluster = cluster;
  process.env.PFS_TEST_REDIS_CLUSTER_NODES = cluster.nodes;
}
