import type { z } from 'zod';

/**
 * A background job as a contract between its producer and its consumer: the queue it travels on (one per
 * kind of job, so short jobs never wait behind long exports), its name and its payload. Payloads are
 * versioned (`version`): the schema parses every version a worker of this release still reads, and the
 * producer writes the newest. Payloads carry ids only, never secrets: the schema strips any other field.
 */
export interface JobContract<Payload extends { version: number }> {
  queue: string;
  name: string;
  schema: z.ZodType<Payload, z.ZodTypeDef, unknown>;
}

/**
 * BullMQ keys live under the deployment's Redis prefix. On a Redis Cluster the prefix is a hash tag
 * (`{<prefix>bull}`), as BullMQ requires: its scripts touch several keys of a queue at once, and the tag puts
 * every key of every queue in one slot.
 */
export const queuePrefix = (redisKeyPrefix: string, onCluster = false) =>
  onCluster ? `{${redisKeyPrefix}bull}` : `${redisKeyPrefix}bull`;
