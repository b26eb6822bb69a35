import { Counter, Gauge, Histogram } from 'prom-client';

/** Export job attempts by how they ended (completed, retried, failed = last attempt failed), with durations. */
export const exportJobDuration = new Histogram({
  name: 'pfs_export_job_duration_seconds',
  help: 'Export job attempts by state (completed, retried, failed), with their duration',
  labelNames: ['state'] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
});

/** Push deliveries by provider (apns, fcm, wns, or the device type when skipped) and outcome. */
export const pushDeliveries = new Counter({
  name: 'pfs_push_deliveries_total',
  help: 'Push deliveries by provider and outcome (sent, retry, failed, invalid-token, skipped)',
  labelNames: ['provider', 'outcome'] as const,
});

export type QueueCounts = Record<string, number>;

let readQueueCounts: (() => Promise<QueueCounts>) | undefined;

/** Where the queue depth gauge reads its counts at scrape time (the worker's own queue handle). */
export function observeQueueDepth(read: () => Promise<QueueCounts>): void {
  readQueueCounts = read;
}

new Gauge({
  name: 'pfs_export_queue_jobs',
  help: 'Jobs in the exports queue by state (waiting, active, delayed, failed), read at scrape time',
  labelNames: ['state'] as const,
  async collect() {
    this.reset();
    const counts = await readQueueCounts?.().catch(() => undefined);
    for (const [state, count] of Object.entries(counts ?? {})) this.set({ state }, count);
  },
});
