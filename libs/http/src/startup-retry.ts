/**
 * Containers and pods often start before their Postgres or Redis accepts connections. A service retries
 * such a dependency with backoff for a bounded time (STARTUP_RETRY_SECONDS), then fails naming the variable
 * that points at it, so the operator knows what to fix. Errors that retrying cannot cure (a wrong
 * password, a failed migration) fail at once.
 */
const NOT_THERE_YET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P03', // Postgres: the database system is starting up
]);
// "Failed to refresh slots cache": no seed node of a Redis Cluster answered CLUSTER SLOTS (refused, or too
// slow): the cluster is not there yet, as ECONNREFUSED is for one server.
const NOT_THERE_YET_MESSAGES =
  /Connection terminated|connection timeout|Connection is closed|Failed to refresh slots cache/i;

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

function isNotThereYet(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && NOT_THERE_YET_CODES.has(code)) return true;
  if (typeof message === 'string' && NOT_THERE_YET_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isNotThereYet(inner, depth + 1))) return true;
  return isNotThereYet(cause, depth + 1);
}

export interface StartupRetryOptions {
  /** The environment variable that points at the dependency, named in the final error. */
  variable: string;
  /** What it is, for messages: "Postgres", "Redis". */
  dependency: string;
  /** STARTUP_RETRY_SECONDS: how long to keep trying; 0 tries once. */
  seconds: number;
  /** Told about each failed attempt that will be retried. */
  onRetry?: (message: string) => void;
}

export async function retryAtStartup<T>(options: StartupRetryOptions, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + options.seconds * 1000;
  let delay = FIRST_DELAY_MS;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isNotThereYet(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(
          `${options.variable}: cannot reach ${options.dependency} after ${tries} attempt(s) in ` +
            `${options.seconds}s (STARTUP_RETRY_SECONDS): ${reason}`,
          { cause: error },
        );
      }
      options.onRetry?.(`${options.variable}: ${options.dependency} not reachable yet (${reason}); retrying`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, remaining)));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}

/**
 * The two stores every service opens at start, each retried within STARTUP_RETRY_SECONDS. `redisVariable`:
 * the variable that points at Redis (REDIS_CLUSTER_NODES when set, REDIS_URL otherwise), named in messages.
 */
export function storeStartup(seconds: number, warn: (message: string) => void, redisVariable = 'REDIS_URL') {
  const retry =
    (variable: string, dependency: string) =>
    <T>(open: () => Promise<T>) =>
      retryAtStartup({ variable, dependency, seconds, onRetry: warn }, open);
  const redis = retry(redisVariable, 'Redis');
  return {
    postgres: retry('DATABASE_URL', 'Postgres'),
    /** Opened after Postgres: when Redis cannot be reached, `openedBefore` (the database) is closed first. */
    redis: <T>(open: () => Promise<T>, openedBefore?: { destroy(): Promise<unknown> }) =>
      redis(open).catch(async (error: unknown) => {
        await openedBefore?.destroy();
        throw error;
      }),
  };
}

/**
 * `storeStartup` of a service (api, auth, worker) from its parsed config: its STARTUP_RETRY_SECONDS, retries
 * warned through its logger, and Redis named by the variable it reads (REDIS_CLUSTER_NODES when set).
 */
export function serviceStoreStartup(
  config: { STARTUP_RETRY_SECONDS: number; REDIS_CLUSTER_NODES?: readonly unknown[] },
  logger: { warn(message: string): void },
) {
  return storeStartup(
    config.STARTUP_RETRY_SECONDS,
    (message) => logger.warn(message),
    config.REDIS_CLUSTER_NODES?.length ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL',
  );
}
