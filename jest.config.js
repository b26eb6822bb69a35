/**
 * One Jest run over every package. Tests run TypeScript sources directly (workspace packages map to
 * their src), against the machine's real Postgres and Redis: jest/global-setup.ts gives each run its
 * own database and Redis key prefix.
 *
 * Two projects: `pfs`, every test on the machine's Redis; and `redis-cluster`, the suites whose Redis use
 * differs on a cluster (auth, the API's conventions with its rate limit, the cached profile, exports) once
 * more against a private three-master Redis Cluster the global setup starts on loopback
 * (jest/redis-cluster-env.ts points the services at it).
 */
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/infra'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  moduleNameMapper: {
    '^@pfs/(auth|api|worker|cli)$': '<rootDir>/services/$1/src',
    '^@pfs/([a-z-]+)$': '<rootDir>/libs/$1/src',
  },
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'pfs',
      testMatch: ['**/*.test.ts'],
      setupFiles: ['<rootDir>/jest/setup-env.ts'],
    },
    {
      ...shared,
      displayName: 'redis-cluster',
      testMatch: [
        '<rootDir>/services/auth/test/integration/*.test.ts',
        '<rootDir>/services/api/test/integration/conventions/*.test.ts',
        '<rootDir>/services/api/test/integration/me-profile-cache.test.ts',
        '<rootDir>/services/api/test/integration/exports/*.test.ts',
        '<rootDir>/services/worker/test/integration/export-queue.test.ts',
      ],
      // Suites about one Redis server's faults (stopped, restarted empty) have no cluster meaning, nor the
      // race of a queue's start-up with an immediate close (20 start-close rounds, a connection lifecycle test),
      // nor the gate's client-side caching, which is used with one Redis server only (GATE_LOCAL_CACHE).
      testPathIgnorePatterns: [
        '/node_modules/',
        'redis-restart-empty',
        'store-faults',
        'export-queue-close',
        'gate-local-cache',
      ],
      setupFiles: ['<rootDir>/jest/setup-env.ts', '<rootDir>/jest/redis-cluster-env.ts'],
    },
  ],
  globalSetup: '<rootDir>/jest/global-setup.ts',
  globalTeardown: '<rootDir>/jest/global-teardown.ts',
  testTimeout: 30_000,
  // Two cores: two workers keep the machine responsive and the database unsaturated.
  maxWorkers: 2,
};
