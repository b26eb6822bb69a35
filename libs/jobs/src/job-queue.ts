import { JobContract, queuePrefix } from '@pfs/contracts';
import {
  ClusterNode,
  closeQueueAndConnection,
  createRedisClient,
  redisAddressOf,
  redisTimeouts,
} from '@pfs/redis';
import { JobsOptions, Queue } from 'bullmq';

/** What a producer needs of the service's configuration. */
export type JobQueueConfig = {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: ClusterNode[];
  REDIS_KEY_PREFIX: string;
} & Parameters<typeof redisTimeouts>[0];

/** The BullMQ prefix of a deployment: hash-tagged on a Redis Cluster (queuePrefix). */
export const jobQueuePrefix = (config: Pick<JobQueueConfig, 'REDIS_KEY_PREFIX' | 'REDIS_CLUSTER_NODES'>) =>
  queuePrefix(config.REDIS_KEY_PREFIX, (config.REDIS_CLUSTER_NODES?.length ?? 0) > 0);

/** The producer side of one job contract's queue. */
export interface JobQueue<Payload> {
  /** Checks the payload against the contract (unknown fields are dropped, never sent), then queues it. */
  add(payload: Payload, options?: JobsOptions): Promise<void>;
  /** The BullMQ queue, for reading job states and counts. */
  readonly queue: Queue;
  close(): Promise<void>;
}

/**
 * Opens the producer of one contract's queue on a connection of its own. The producer issues no blocking
 * command, so its commands time out: a down or frozen Redis makes the caller fail (POST /exports answers
 * 503) instead of waiting in the offline queue forever.
 */
export function openJobQueue<Payload extends { version: number }>(
  contract: JobContract<Payload>,
  config: JobQueueConfig,
): JobQueue<Payload> {
  const connection = createRedisClient({
    ...redisAddressOf(config),
    keyPrefix: '',
    forBlockingQueue: true,
    ...redisTimeouts(config),
  });
  const queue = new Queue(contract.queue, { connection, prefix: jobQueuePrefix(config) });
  // Outages surface where it matters (the producing call fails, /health reports Redis); the producer's own
  // connection must never crash the process with an unhandled 'error' event.
  connection.on('error', () => undefined);
  queue.on('error', () => undefined);
  return {
    queue,
    async add(payload, options) {
      await queue.add(contract.name, contract.schema.parse(payload), options);
    },
    close: () => closeQueueAndConnection(queue, connection),
  };
}
