import { readFileSync } from 'node:fs';
import type { Pool } from 'pg';
import { cpuMillisOf } from './service-process';

/**
 * The CPU time the Postgres server processes of one application (its `application_name`, e.g. `pfs-api`) have
 * spent, read from /proc: the load the API puts on Postgres, which shares the machine's cores with it, so a change
 * that moves work between the two shows in their sum. Backends opened during a window count from zero, so
 * `spentSince` covers every connection the application used in it (one closed within the window is missed: pg
 * closes idle connections only after 10 s).
 */
export class PostgresCpu {
  private constructor(
    private readonly pool: Pool,
    private readonly application: string,
    private readonly start: Map<number, number>,
  ) {}

  static async begin(pool: Pool, application: string): Promise<PostgresCpu> {
    return new PostgresCpu(pool, application, await backendCpu(pool, application));
  }

  /** Milliseconds of CPU the application's backends spent since `begin`. */
  async spentSince(): Promise<number> {
    const now = await backendCpu(this.pool, this.application);
    let spent = 0;
    for (const [pid, millis] of now) spent += millis - (this.start.get(pid) ?? 0);
    return spent;
  }
}

async function backendCpu(pool: Pool, application: string): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
    [application],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      readFileSync(`/proc/${pid}/stat`); // a backend on another machine (or gone): not counted
      cpu.set(pid, cpuMillisOf(pid));
    } catch {
      // not on this machine, or ended since the query
    }
  }
  return cpu;
}
