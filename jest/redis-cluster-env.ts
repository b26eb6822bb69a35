// The `redis-cluster` project (jest.config.js): the same suites, on the private Redis Cluster the global
// setup started, under a key prefix of their own.
if (!process.env.PFS_TEST_REDIS_CLUSTER_NODES) {
  throw new Error('jest/global-setup.ts did not start the test Redis Cluster');
}
process.env.REDIS_CLUSTER_NODES = process.env.PFS_TEST_REDIS_CLUSTER_NODES;
process.env.REDIS_KEY_PREFIX = `${process.env.REDIS_KEY_PREFIX}cluster:`;
