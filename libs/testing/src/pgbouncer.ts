import { ChildProcess, spawn } from 'node:child_process';
import { chownSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killOnExit } from './kill-on-exit';
import { postgresIds, privateDirectory, waitForPort } from './private-stores';
import { freePort } from './service-process';

/** A private PgBouncer on a free loopback port, in front of a Postgres server (trust auth, user postgres). */
export interface PrivatePgBouncer {
  port: number;
  /** URL of database `name` through the pooler (the server's database of the same name). */
  url(name: string): string;
  /** What PgBouncer logged (its log file), for a failing test's message. */
  logPath: string;
  /** Stops PgBouncer (SIGINT then SIGKILL) and removes its files. */
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** The Postgres port it pools (default 5432: the machine's shared server). */
  targetPort?: number;
  poolMode?: 'session' | 'transaction' | 'statement';
  /** Server connections per database and user pair. */
  poolSize?: number;
  /** Extra `[pgbouncer]` settings. */
  settings?: Record<string, string | number>;
}

/** The Debian package's binary (`apt-get install pgbouncer`; .ci/run installs it). */
export const PGBOUNCER_BIN = '/usr/sbin/pgbouncer';

/**
 * Starts `/usr/sbin/pgbouncer` (in the foreground, as a child of the test) with a configuration of its own:
 * every database name passes through to the same name on the target server (`* =`), `pool_mode`
 * transaction by default. pg sends `statement_timeout` as a startup parameter, which PgBouncer cannot keep
 * per client: it is listed in `ignore_startup_parameters` (docs/scaling.md: set it on the role instead).
 */
export async function startPgBouncer(options: PgBouncerOptions = {}): Promise<PrivatePgBouncer> {
  const port = await freePort();
  const root = privateDirectory('pfs-pgbouncer-');
  const logPath = join(root, 'pgbouncer.log');
  const settings: Record<string, string | number> = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: join(root, 'users.txt'),
    pool_mode: options.poolMode ?? 'transaction',
    default_pool_size: options.poolSize ?? 10,
    max_client_conn: 500,
    ignore_startup_parameters: 'extra_float_digits,statement_timeout',
    logfile: logPath,
    admin_users: 'postgres',
    ...options.settings,
  };
  const ini = [
    '[databases]',
    `* = host=127.0.0.1 port=${options.targetPort ?? 5432}`,
    '[pgbouncer]',
    ...Object.entries(settings).map(([name, value]) => `${name} = ${value}`),
  ].join('\n');
  const iniPath = join(root, 'pgbouncer.ini');
  writeFileSync(join(root, 'users.txt'), '"postgres" ""\n');
  writeFileSync(iniPath, `${ini}\n`);
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    for (const file of ['users.txt', 'pgbouncer.ini']) chownSync(join(root, file), ...postgresIds());
  // As root, PgBouncer drops to `postgres` itself (-u), so the child's pid is PgBouncer's.
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [...(asRoot ? ['-u', 'postgres'] : []), iniPath], {
    stdio: 'ignore',
  });
  killOnExit(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(port),
      exited.then(() => Promise.reject(new Error(`pgbouncer exited at start (see ${logPath})`))),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    port,
    logPath,
    url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
