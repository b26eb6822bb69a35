import { accessTokenKey, generateToken, hashToken } from '@pfs/contracts';
import type { Redis } from '@pfs/redis';
import { UserRepository } from '@pfs/resource-store';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { recordReplay } from './ceiling';
import { measure, Measurement, MeasureOptions } from './measure';

export const ALL_SCOPES_FOR_BENCH =
  'user:rw entries:rw budgets:rw accounts:rw images:rw categories:rw tags:rw locations:rw';

/** The running servers and the bench database, as the runner started them. */
export interface BenchServers {
  apiUrl: string;
  bareUrl: string;
  /** Process ids of the API and the bare endpoint, to read the CPU time they spend (`cpuMillisOf`). */
  apiPid: number;
  barePid: number;
  env: Record<string, string>;
  dataSource: DataSource;
  pg: Pool;
  redis: Redis;
}

/** What a suite gets: the running servers, the bench database, a way to make users, and `measure`. */
export interface BenchContext extends BenchServers {
  /** BENCH_QUICK=1: smaller data sets, for a smoke run. */
  quick: boolean;
  createUser(scope?: string): Promise<{ userId: string; token: string; auth: string }>;
  /** Measures and records a row of the report (printed beside the bare baseline). */
  measure(options: MeasureOptions): Promise<Measurement>;
  /**
   * Measures the scenario's ceiling (bare Express replaying the API's exact answer to `options.url`, same
   * connections and duration), then the API, and records the row beside that ceiling. The replay is recorded
   * from `replayFrom` when given (e.g. a page URL without the cache-busting parameter of a cold scenario).
   */
  measureBesideReplay(options: MeasureOptions & { replayFrom?: string }): Promise<Measurement>;
  /** Records a row measured otherwise than by `measure` (e.g. `measurePool`, beside a peer as its ceiling). */
  record(row: Measurement): void;
  /** Records a figure that is not a throughput (a duration, a memory peak). */
  note(name: string, value: string): void;
  /** Records a figure beside its ceiling of the same run: `value / ceiling` (higher is better) is printed. */
  compare(name: string, value: number, ceilingName: string, ceiling: number, unit: string): void;
}

export interface BenchReport {
  rows: Measurement[];
  notes: Array<{ name: string; value: string }>;
}

export function createBenchContext(options: BenchServers & { report: BenchReport }): BenchContext {
  const users = new UserRepository(options.dataSource);
  return {
    ...options,
    quick: process.env.BENCH_QUICK === '1',
    async createUser(scope = ALL_SCOPES_FOR_BENCH) {
      const user = await users.create({ email: `bench-${randomBytes(6).toString('hex')}@example.test` });
      const token = generateToken();
      // The introspection record the auth service would write (the redis client carries the prefix).
      const record = {
        sub: user.id,
        scope,
        kind: 'access',
        client_id: 'bench',
        exp: Math.floor(Date.now() / 1000) + 86_400,
      };
      await options.redis.set(accessTokenKey(hashToken(token)), JSON.stringify(record), 'EX', 86_400);
      return { userId: user.id, token, auth: `Bearer ${token}` };
    },
    async measure(measureOptions) {
      const result = await measure(measureOptions);
      options.report.rows.push(result);
      return result;
    },
    async measureBesideReplay(measureOptions) {
      const replayName = `r${options.report.rows.length}`;
      const replayUrl = await recordReplay(
        options.bareUrl,
        replayName,
        measureOptions.replayFrom ?? measureOptions.url,
        measureOptions.headers ?? {},
      );
      const ceiling = await measure({
        ...measureOptions,
        url: replayUrl,
        requests: undefined,
        target: undefined,
      });
      const result = { ...(await measure(measureOptions)), ceiling };
      options.report.rows.push(result);
      return result;
    },
    record(row) {
      options.report.rows.push(row);
    },
    note(name, value) {
      options.report.notes.push({ name, value });
    },
    compare(name, value, ceilingName, ceiling, unit) {
      const format = (figure: number) => `${figure.toFixed(figure < 10 ? 2 : 0)} ${unit}`;
      options.report.notes.push({
        name,
        value: `${format(value)} vs ${ceilingName} ${format(ceiling)} = ${(value / ceiling).toFixed(2)}`,
      });
    },
  };
}
