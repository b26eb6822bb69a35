import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { killOnExit } from './kill-on-exit';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A private Redis Cluster of three masters (no replicas) on loopback, for tests and the bench. */
export interface PrivateRedisCluster {
  ports: number[];
  /** REDIS_CLUSTER_NODES for the services: `127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`. */
  nodes: string;
  /** Stops every node and removes their files. */
  stop(): Promise<void>;
}

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port P with P and its cluster bus port P + 10000 both free. */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) {
      taken.add(port).add(port + 10_000);
      return port;
    }
  }
  throw new Error('no free loopback port pair for a Redis Cluster node');
}

async function clusterState(port: number): Promise<string | undefined> {
  try {
    const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
    return /cluster_state:(\w+)/.exec(stdout)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Starts three `redis-server --cluster-enabled yes` on free loopback ports (no persistence), joins them with
 * `redis-cli --cluster create … --cluster-replicas 0`, and resolves once every node says `cluster_state:ok`.
 */
export async function startPrivateRedisCluster(size = 3, timeoutMs = 30_000): Promise<PrivateRedisCluster> {
  const root = mkdtempSync(join(tmpdir(), 'pfs-redis-cluster-'));
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < size; i += 1) ports.push(await clusterPort(taken));
  const children: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(root, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '5000',
        '--dir',
        root,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    ),
  );
  children.forEach(killOnExit);
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
            child.once('exit', resolve);
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + timeoutMs;
    for (const port of ports) {
      while ((await clusterState(port)) === undefined) {
        if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`);
        await sleep(50);
      }
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of ports) {
      while ((await clusterState(port)) !== 'ok') {
        if (Date.now() > deadline) throw new Error(`the Redis Cluster did not become ok on ${port}`);
        await sleep(100);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { ports, nodes: ports.map((port) => `127.0.0.1:${port}`).join(','), stop };
}
