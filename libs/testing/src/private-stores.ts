import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './service-process';

/**
 * Private Redis and PostgreSQL servers for fault tests: each on its own free loopback port, started,
 * stopped, frozen and restarted by the test, so faults never touch the machine's shared servers.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once something accepts TCP connections on the port. */
export async function waitForPort(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => resolve(socket.end() !== undefined));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await sleep(50);
  }
}

async function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

export interface PrivateRedis {
  port: number;
  url: string;
  /** Starts it again, empty (no persistence), on the same port. */
  start(): Promise<void>;
  /** Stops it (SIGKILL: no save, no goodbye to clients). */
  stop(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing answers. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
}

/** A redis-server without persistence on a free port. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const redis: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      await waitForPort(port);
    },
    async stop() {
      if (!child) return;
      const stopping = child;
      child = undefined;
      stopping.kill('SIGCONT');
      stopping.kill('SIGKILL');
      await waitForExit(stopping);
    },
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
  };
  await redis.start();
  return redis;
}

export interface PrivatePostgres {
  port: number;
  /** The cluster's data directory (a replica is made from the running cluster with pg_basebackup). */
  dataDir: string;
  /** URL of database `name` on this cluster (trust auth, user postgres). */
  url(name: string): string;
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: a crash stop, every connection cut. */
  stop(): Promise<void>;
  /** Stops and removes the cluster's files. */
  destroy(): Promise<void>;
}

/** The first PostgreSQL server binaries under /usr/lib/postgresql/<version>/bin. */
export function postgresBin(tool: string): string {
  const [version] = readdirSync('/usr/lib/postgresql').sort().reverse();
  return `/usr/lib/postgresql/${version}/bin/${tool}`;
}

/** Runs a PostgreSQL tool as the `postgres` user when we are root (initdb refuses root). */
export function runPostgresTool(tool: string, args: string[]): void {
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const [command, ...rest] = [...asUser, postgresBin(tool), ...args];
  execFileSync(command, rest, { stdio: 'ignore' });
}

export interface PrivatePostgresOptions {
  /** Server settings (`-c name=value`), e.g. `{ wal_level: 'replica' }` or `shared_preload_libraries`. */
  settings?: Record<string, string | number>;
}

/** A new cluster (initdb, trust auth, replication allowed from loopback) on a free loopback port, started. */
export async function startPrivatePostgres(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
  const root = privateDirectory('pfs-pg-');
  const data = join(root, 'data');
  runPostgresTool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  return runPrivateCluster(root, data, options);
}

/** A directory under the system temp dir, owned by `postgres` when we are root. */
export function privateDirectory(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) chownSync(root, ...postgresIds());
  return root;
}

/** Starts the cluster in `data` on a free port (its files under `root`, removed by destroy()). */
export async function runPrivateCluster(
  root: string,
  data: string,
  options: PrivatePostgresOptions = {},
): Promise<PrivatePostgres> {
  const port = await freePort();
  const settings = Object.entries({ listen_addresses: '127.0.0.1', fsync: 'off', ...options.settings });
  const flags = settings.map(([name, value]) => `-c ${name}=${value}`).join(' ');
  const serverOptions = `-p ${port} -k ${root} ${flags}`;
  const cluster: PrivatePostgres = {
    port,
    dataDir: data,
    url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async start() {
      runPostgresTool('pg_ctl', ['-D', data, '-o', serverOptions, '-l', join(root, 'log'), '-w', 'start']);
      await waitForPort(port);
    },
    async stop() {
      runPostgresTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    async destroy() {
      try {
        await cluster.stop();
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

export function postgresIds(): [number, number] {
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return [uid, gid];
}
