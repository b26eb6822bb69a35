import { randomBytes } from 'node:crypto';

/** Identifies one `npm test` run, so two runs on one machine never share a database or Redis keys. */
export function newTestRunId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export function testDatabaseUrl(base: string, runId: string): string {
  const url = new URL(base);
  url.pathname = `/pfs_test_${runId}`;
  return url.toString();
}
