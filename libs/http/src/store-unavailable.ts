import { AppError } from '@pfs/errors';

/** What a client is told to wait before retrying while Postgres or Redis is away. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Socket-level failures of either store (refused, reset, timed out, unresolvable). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs that mean "the database is not serving right now", not "the request is wrong":
 * class 08 (connection exception), shutdown and start-up (57P01–57P03), too many connections (53300),
 * a statement cancelled by `statement_timeout` (57014), and retryable conflicts (40001, 40P01).
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|53300|57014|40001|40P01)$/;

/** Messages pg, TypeORM's pool and ioredis use for a store that is gone, slow, or restarting. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /not queryable/i,
  /Command timed out/i,
  /Stream isn't writeable/i,
  /Connection is closed/i,
  /max retries per request/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  driverError?: unknown;
}

function looksUnavailable(error: ErrorLike): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  const message = typeof error.message === 'string' ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/** True when `error` (or what it wraps: TypeORM's driverError, a `cause`) says a store is unreachable or timing out. */
export function isStoreUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as ErrorLike;
    if (looksUnavailable(candidate)) return true;
    pending.push(candidate.cause, candidate.driverError);
  }
  return false;
}

/** The 503 `error.unavailable` a store outage becomes, with Retry-After; other errors pass unchanged. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof AppError || !isStoreUnavailable(error)) return error;
  return new AppError('UNAVAILABLE', {
    description: 'A data store is unreachable or timing out.',
    headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    cause: error,
  });
}
