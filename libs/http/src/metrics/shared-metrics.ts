import { Counter, Gauge } from 'prom-client';
import type { HealthCheck } from '../health.routes';

/** Requests refused by a rate limit; `limit` names which (api, signin-account, token-ip, …). */
export const rateLimitRefusals = new Counter({
  name: 'pfs_rate_limit_refusals_total',
  help: 'Requests refused by a rate limit, by limit',
  labelNames: ['limit'] as const,
});

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

interface StoreSources {
  checks: Record<string, HealthCheck>;
  pool?: () => PoolStats | undefined;
}

/** What the gauges below read at scrape time: the process's dependencies, set once they exist. */
let sources: StoreSources | undefined;

/**
 * `pfs_dependency_up{dependency}` runs the readiness checks (Postgres, Redis, migrations…) at each scrape;
 * `pfs_postgres_pool_connections{state}` reads the pg pool's counters (no query).
 */
export function observeDependencies(next: StoreSources): void {
  sources = next;
}

const CHECK_TIMEOUT_MS = 2_000;

new Gauge({
  name: 'pfs_dependency_up',
  help: '1 when the dependency answered its readiness check at scrape time, else 0',
  labelNames: ['dependency'] as const,
  async collect() {
    this.reset();
    if (!sources) return;
    const checks = Object.entries(sources.checks);
    const results = await Promise.allSettled(
      checks.map(([, check]) =>
        Promise.race([check(), new Promise((_, reject) => setTimeout(reject, CHECK_TIMEOUT_MS).unref())]),
      ),
    );
    results.forEach((result, index) =>
      this.set({ dependency: checks[index][0] }, result.status === 'fulfilled' ? 1 : 0),
    );
  },
});

new Gauge({
  name: 'pfs_postgres_pool_connections',
  help: 'Postgres pool connections by state (total, idle, waiting = requests queued for a connection)',
  labelNames: ['state'] as const,
  collect() {
    this.reset();
    const stats = sources?.pool?.();
    if (!stats) return;
    this.set({ state: 'total' }, stats.total);
    this.set({ state: 'idle' }, stats.idle);
    this.set({ state: 'waiting' }, stats.waiting);
  },
});
