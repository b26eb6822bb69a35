import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@pfs/logger';
import { AggregatorRegistry } from 'prom-client';
import { RunningHttpServer, startHttpServer } from './http-server';
import { enableDefaultMetrics } from './metrics/metrics-server';

/** A worker that dies sooner than this after its start counts as a crash loop: restarts back off. */
const FAST_DEATH_MS = 5_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** How long a stop lets the workers drain (each drains its own requests, then exits) before killing them. */
const STOP_GRACE_MS = 30_000;

export interface ClusterSupervision {
  /** How many worker processes (`API_WORKERS`, `AUTH_WORKERS`); 1 or less runs the service in this process. */
  workers: number;
  /** The service's metrics listener: served by the primary, summed over the workers. */
  metrics: { port: number | undefined; host: string };
}

/** True in a worker forked by `superviseWorkers`: the primary serves the metrics port, not the workers. */
export const isClusterWorker = () => cluster.isWorker;

/** In a cluster worker: answers the primary's requests for this process's metrics (prom-client over IPC). */
export function answerMetricsOfPrimary(): void {
  enableDefaultMetrics();
  // Constructing it registers the worker's IPC listener that the primary's clusterMetrics() asks.
  new AggregatorRegistry();
}

/**
 * Several processes of one service behind one port (node:cluster): called first in a service's main. In
 * the primary (when more than one worker is asked) it forks the workers and supervises them, and resolves
 * true: the caller returns and runs nothing else. In a worker, or with one worker, it resolves false: the
 * caller runs the service as usual. Every worker listens on the same port; the primary hands connections
 * round-robin. A worker that dies is replaced (with a growing delay when it keeps dying at once); SIGTERM
 * or SIGINT is passed to every worker, each drains its requests and stops, then the primary exits.
 * Workers share nothing in memory: everything they share lives in Postgres and Redis, as between containers.
 */
export async function superviseWorkers(
  name: string,
  options: ClusterSupervision,
  logger: Logger,
): Promise<boolean> {
  if (options.workers <= 1 || !cluster.isPrimary) return false;
  let stopping = false;
  let fastDeaths = 0;
  const startedAt = new WeakMap<Worker, number>();
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    logger.info({ pid: worker.process.pid }, `${name} worker started`);
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    fastDeaths = lived < FAST_DEATH_MS ? fastDeaths + 1 : 0;
    const delay = Math.min(fastDeaths * 1_000, MAX_RESTART_DELAY_MS);
    logger.error({ pid: worker.process.pid, code, signal, restartInMs: delay }, `${name} worker died`);
    setTimeout(() => !stopping && fork(), delay);
  });
  for (let i = 0; i < options.workers; i += 1) fork();
  logger.info({ workers: options.workers, pid: process.pid }, `${name} primary started its workers`);
  const metrics = await startClusterMetrics(options.metrics, logger);

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} primary stopping its workers`);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    const exited = workers.map((w) => new Promise((resolve) => w.process.once('exit', resolve)));
    for (const w of workers) if (w.process.exitCode === null) w.process.kill('SIGTERM');
    const timer = setTimeout(() => workers.forEach((w) => w.process.kill('SIGKILL')), STOP_GRACE_MS);
    await Promise.all(exited);
    clearTimeout(timer);
    await metrics?.stop();
    logger.info(`${name} stopped`);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // Run by a supervisor over IPC (`npm start`): the workers go when it goes.
  if (process.send) process.on('disconnect', () => void stop('supervisor gone'));
  return true;
}

/** GET /metrics of the primary: every worker's metrics, summed (prom-client's AggregatorRegistry over IPC). */
async function startClusterMetrics(
  options: ClusterSupervision['metrics'],
  logger: Logger,
): Promise<RunningHttpServer | undefined> {
  if (options.port === undefined) return undefined;
  const registry = new AggregatorRegistry();
  const server = await startHttpServer(
    (req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: GET /metrics\n');
        return;
      }
      registry.clusterMetrics().then(
        (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
        (error: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error.message}\n`),
      );
    },
    { port: options.port, host: options.host },
  );
  logger.info({ metricsUrl: `${server.url}/metrics` }, 'metrics listening');
  return server;
}
