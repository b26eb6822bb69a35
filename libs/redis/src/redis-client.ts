import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';

export type { Redis };

/** A Redis Cluster seed node (REDIS_CLUSTER_NODES). */
export interface ClusterNode {
  host: string;
  port: number;
}

export interface RedisClientOptions {
  url: string;
  /**
   * Redis Cluster seed nodes: when given (non-empty), the client is an ioredis `Cluster` over them and `url`
   * is not used. Multi-key commands and scripts then need their keys in one hash slot (`{…}` tags).
   */
  clusterNodes?: ClusterNode[];
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

/** Where a service's Redis is (libs/config redisShape): one server, or the seed nodes of a cluster. */
export function redisAddressOf(config: { REDIS_URL: string; REDIS_CLUSTER_NODES?: ClusterNode[] }) {
  return { url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES ?? [] };
}

/** A service's Redis client options from its config (libs/config redisShape): address, key prefix, timeouts. */
export function redisOptionsOf(config: {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: ClusterNode[];
  REDIS_KEY_PREFIX: string;
  REDIS_COMMAND_TIMEOUT_MS: number;
  REDIS_CONNECT_TIMEOUT_MS: number;
}) {
  return { ...redisAddressOf(config), keyPrefix: config.REDIS_KEY_PREFIX, ...redisTimeouts(config) };
}

/** True when the client is a Redis Cluster client (keys of one multi-key command must share a slot). */
export function isCluster(client: Redis): boolean {
  return (client as unknown as { isCluster?: boolean }).isCluster === true;
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
  if (options.clusterNodes?.length) return createClusterClient(options.clusterNodes, redisOptions);
  return new Redis(options.url, redisOptions);
}

/**
 * An ioredis Cluster with the same behaviour as a single client (prefix, timeouts, offline queue, auto
 * pipelining, reconnect backoff). It answers every command a `Redis` does, routed by key slot, so the
 * services hold it as a `Redis`; `isCluster` tells them apart where a multi-key command must be split.
 */
function createClusterClient(nodes: ClusterNode[], single: RedisOptions): Redis {
  const { keyPrefix, lazyConnect, enableOfflineQueue, enableAutoPipelining, retryStrategy, ...perNode } =
    single;
  const options: ClusterOptions = {
    keyPrefix,
    lazyConnect,
    enableOfflineQueue,
    enableAutoPipelining,
    clusterRetryStrategy: (attempt) => retryStrategy?.(attempt) ?? 1_000,
    // CLUSTER SLOTS within the connect timeout, not ioredis's 1 s: on a busy host a node answering late at
    // start made the service fail ("Failed to refresh slots cache"; seen in the scale bench at load 25).
    slotsRefreshTimeout: single.connectTimeout,
    // Per-node reconnects are the cluster's to decide (clusterRetryStrategy).
    redisOptions: perNode,
  };
  return new Cluster(nodes, options) as unknown as Redis;
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
    'url' | 'clusterNodes' | 'keyPrefix' | 'autoPipelining' | 'commandTimeoutMs' | 'connectTimeoutMs'
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

/**
 * Deletes `keys` (any slots): one DEL on a single server; on a cluster one DEL per key (in parallel, auto
 * pipelined per node), since a multi-key DEL must stay in one slot.
 */
export async function deleteKeys(client: Redis, keys: string[]): Promise<void> {
  if (!keys.length) return;
  if (isCluster(client)) await Promise.all(keys.map((key) => client.del(key)));
  else await client.del(...keys);
}

/** GETs `keys` (any slots): one MGET on a single server, one GET per key on a cluster. */
export async function getMany(client: Redis, keys: string[]): Promise<Array<string | null>> {
  if (!keys.length) return [];
  if (isCluster(client)) return Promise.all(keys.map((key) => client.get(key)));
  return client.mget(...keys);
}

/**
 * The keys matching `pattern` (full names, prefix included: SCAN does not prefix patterns), in SCAN batches;
 * on a cluster, on every master.
 */
export async function* scanKeys(client: Redis, pattern: string): AsyncGenerator<string[]> {
  const targets = isCluster(client) ? (client as unknown as Cluster).nodes('master') : [client];
  for (const node of targets) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length) yield keys;
    } while (cursor !== '0');
  }
}

/** Every key matching `pattern` (see `scanKeys`). */
export async function keysMatching(client: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of scanKeys(client, pattern)) found.push(...keys);
  return found;
}
