/**
 * One Jest run over every package. Tests run TypeScript sources directly (workspace packages map to
 * their src), against the machine's real Postgres and Redis: jest/global-setup.ts gives each run its
 * own database and Redis key prefix.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/infra'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  moduleNameMapper: {
    '^@pfs/(auth|api|worker|cli)$': '<rootDir>/services/$1/src',
    '^@pfs/([a-z-]+)$': '<rootDir>/libs/$1/src',
  },
  globalSetup: '<rootDir>/jest/global-setup.ts',
  globalTeardown: '<rootDir>/jest/global-teardown.ts',
  setupFiles: ['<rootDir>/jest/setup-env.ts'],
  testTimeout: 30_000,
  // Two cores: two workers keep the machine responsive and the database unsaturated.
  maxWorkers: 2,
};
