// Runs in each test worker: fail loudly if the global setup did not run (a test must never touch a real database).
if (!process.env.PFS_TEST_RUN_ID || !process.env.DATABASE_URL?.includes('/pfs_test_')) {
  throw new Error('jest/global-setup.ts did not prepare a test database');
}
