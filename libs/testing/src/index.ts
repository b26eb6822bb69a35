import { createLogger, Logger } from '@pfs/logger';
import { randomBytes } from 'node:crypto';

/** A logger that writes nothing, for apps built inside tests. */
export function testLogger(): Logger {
  return createLogger({ name: 'test', level: 'silent' });
}

/** An email no other test (or test run) uses, so tests never collide on the shared database. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(6).toString('hex')}@example.test`;
}

/** A logger that keeps every line it writes, parsed, so a test can check what was logged. */
export function capturingLogger(name = 'test'): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    name,
    level: 'info',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  return { logger, lines };
}
export {
  READINESS_PATH,
  freePort,
  isProcessAlive,
  logLinesOf,
  startNodeProcess,
  startTcpForwarder,
  waitForHealthy,
  waitForOutput,
} from './service-process';
export type { ServiceProcess } from './service-process';
export { startPrivatePostgres, startPrivateRedis } from './private-stores';
export type { PrivatePostgres, PrivatePostgresOptions, PrivateRedis } from './private-stores';
export { startPrivateReplica, startPrivateReplicatedPostgres } from './private-replication';
export type { PrivateReplicatedPostgres } from './private-replication';
export { PGBOUNCER_BIN, startPgBouncer } from './pgbouncer';
export type { PgBouncerOptions, PrivatePgBouncer } from './pgbouncer';
export { startPrivateRedisCluster } from './redis-cluster';
export type { PrivateRedisCluster } from './redis-cluster';
