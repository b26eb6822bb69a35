import Redis, { RedisOptions } from 'ioredis';

export type { Redis };

export interface RedisClientOptions {
  url: string;
  /** Prepended to every key this client touches (ioredis `keyPrefix`). */
  keyPrefix: string;
  /** BullMQ needs `maxRetriesPerRequest: null` on the connections it blocks on. */
  forBlockingQueue?: boolean;
  /** Fail fast on start-up instead of retrying forever (services verify Redis before they listen). */
  lazyConnect?: boolean;
  /**
   * Commands issued in the same event-loop turn go out as one pipeline (ioredis `enableAutoPipelining`):
   * one write and one read for the gate checks of all requests that arrived together, instead of one each.
   */
  autoPipelining?: boolean;
  /**
   * A command unanswered this long rejects ("Command timed out"): a frozen Redis (SIGSTOP, a stuck host)
   * then fails requests with a 503 instead of hanging them until it thaws. Never set on blocking
   * connections (BullMQ's BRPOPLPUSH waits on purpose).
   */
  commandTimeoutMs?: number;
  /** One (re)connection attempt gives up after this long. */
  connectTimeoutMs?: number;
}

/** The timeouts of a service's config (libs/config redisShape), as client options. */
export function redisTimeouts(config: {
  REDIS_COMMAND_TIMEOUT_MS: number;
  REDIS_CONNECT_TIMEOUT_MS: number;
}) {
  return {
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    connectTimeoutMs: config.REDIS_CONNECT_TIMEOUT_MS,
  };
}

/** A service's Redis client options from its config (libs/config redisShape): address, key prefix, timeouts. */
export function redisOptionsOf(config: {
  REDIS_URL: string;
  REDIS_KEY_PREFIX: string;
  REDIS_COMMAND_TIMEOUT_MS: number;
  REDIS_CONNECT_TIMEOUT_MS: number;
}) {
  return { url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, ...redisTimeouts(config) };
}

export function createRedisClient(options: RedisClientOptions): Redis {
  const redisOptions: RedisOptions = {
    keyPrefix: options.forBlockingQueue ? undefined : options.keyPrefix,
    lazyConnect: options.lazyConnect ?? true,
    maxRetriesPerRequest: options.forBlockingQueue ? null : 2,
    enableOfflineQueue: options.forBlockingQueue ? true : false,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    commandTimeout: options.commandTimeoutMs,
    enableAutoPipelining: options.autoPipelining ?? false,
    // Reconnect with a capped backoff; health checks report the outage meanwhile.
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  };
  return new Redis(options.url, redisOptions);
}

/** Connects a lazily created client, so a start-up failure is reported instead of retried silently. */
export async function connectRedis(client: Redis): Promise<void> {
  if (client.status === 'wait') await client.connect();
  await client.ping();
}

/** Closes gracefully, falling back to a hard disconnect when the server is gone. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}

/** Creates and connects a prefixed client; a start-up failure says Redis could not be reached, and leaves no socket open. */
export async function openRedis(
  options: Pick<
    RedisClientOptions,
    'url' | 'keyPrefix' | 'autoPipelining' | 'commandTimeoutMs' | 'connectTimeoutMs'
  >,
): Promise<Redis> {
  const client = createRedisClient(options);
  // ioredis rejects `connect()` with "Connection is closed."; the socket's own error (ECONNREFUSED,
  // ENOTFOUND…) only comes as an 'error' event, and it is the one that tells the operator what is wrong.
  let socketError: NodeJS.ErrnoException | undefined;
  const remember = (error: NodeJS.ErrnoException) => (socketError ??= error);
  client.on('error', remember);
  try {
    await connectRedis(client);
    client.off('error', remember);
    return client;
  } catch (error) {
    client.disconnect();
    const reason = socketError ?? (error as NodeJS.ErrnoException);
    throw Object.assign(new Error(`cannot reach Redis: ${reason.message}`, { cause: reason }), {
      code: reason.code,
    });
  }
}
