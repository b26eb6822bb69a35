import { accessTokenKey, generateToken, hashToken } from '@pfs/contracts';
import { closeRedis, connectRedis, createRedisClient, type ClusterNode } from '@pfs/redis';
import type { PrivatePgBouncer, PrivateRedisCluster } from '@pfs/testing';
import { ALL_SCOPES_FOR_BENCH, type BenchContext } from '../bench-context';

/** One store configuration of the scale suite: the API's Redis and its way to Postgres. */
export interface Store {
  name: string;
  env: Record<string, string>;
  clusterNodes: ClusterNode[];
}

/**
 * The four store configurations (one Redis or the private Redis Cluster, Postgres direct or through the
 * private PgBouncer); quick (the smoke test): the two ends only.
 */
export function storeMatrix(
  context: BenchContext,
  cluster: PrivateRedisCluster,
  bouncer: PrivatePgBouncer,
): Store[] {
  const direct = context.env.DATABASE_URL;
  const pooled = bouncer.url(new URL(direct).pathname.slice(1));
  const nodes = cluster.ports.map((port) => ({ host: '127.0.0.1', port }));
  const stores: Store[] = [];
  for (const onCluster of [false, true])
    for (const viaBouncer of [false, true]) {
      if (context.quick && onCluster !== viaBouncer) continue;
      stores.push({
        name: `${onCluster ? 'Redis Cluster' : 'one Redis'}, ${viaBouncer ? 'PgBouncer' : 'direct'}`,
        env: {
          ...(onCluster ? { REDIS_CLUSTER_NODES: cluster.nodes } : {}),
          ...(viaBouncer ? { DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct } : {}),
        },
        clusterNodes: onCluster ? nodes : [],
      });
    }
  return stores;
}

/** The introspection record the auth service would write, in the Redis the configuration's API reads. */
export async function tokenIn(store: Store, context: BenchContext, userId: string): Promise<string> {
  const redis = createRedisClient({
    url: context.env.REDIS_URL,
    clusterNodes: store.clusterNodes,
    keyPrefix: context.env.REDIS_KEY_PREFIX,
  });
  try {
    await connectRedis(redis);
    const token = generateToken();
    const exp = Math.floor(Date.now() / 1000) + 86_400;
    const record = { sub: userId, scope: ALL_SCOPES_FOR_BENCH, kind: 'access', client_id: 'bench', exp };
    await redis.set(accessTokenKey(hashToken(token)), JSON.stringify(record), 'EX', 86_400);
    return `Bearer ${token}`;
  } finally {
    await closeRedis(redis);
  }
}
