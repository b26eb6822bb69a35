import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, Server, Socket, connect } from 'node:net';

/**
 * The path an orchestrator polls to know a service is ready for traffic: every service answers it.
 * One constant, so moving to the separate readiness check (`/health/ready`) is a one-line change.
 */
export const READINESS_PATH = '/health/ready';

/** A built service (or any node entry point) running as a child process, its output captured. */
export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `node <args>` with exactly `env` (plus PATH), so a test controls every variable the service sees. */
export function startNodeProcess(args: string[], env: Record<string, string>, cwd?: string): ServiceProcess {
  const entry = args.find((arg) => !arg.startsWith('-'));
  if (entry && !existsSync(resolve(cwd ?? '.', entry)))
    throw new Error(`${entry} is missing: run \`npm run build\` (npm test does) first`);
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd,
    stdio: 'pipe',
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls until `found` returns a value, failing with the process output if it exits or time runs out. */
export async function waitForOutput<T>(
  service: ServiceProcess,
  found: (output: string) => T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = found(service.output());
    if (value !== undefined) return value;
    if (service.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`expected output did not appear:\n${service.output()}`);
}

/** Polls `url` until it answers 200, failing with the process output if it exits or time runs out. */
export async function waitForHealthy(
  service: ServiceProcess,
  url: string,
  timeoutMs = 30_000,
): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline && service.child.exitCode === null) {
    try {
      const response = await fetch(url);
      if (response.ok) return response;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not become healthy (${last}):\n${service.output()}`);
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Forwards a loopback port to another (a store "appearing" on a new port); close() stops it and its sockets. */
export async function startTcpForwarder(
  port: number,
  targetPort: number,
): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The JSON log lines a service has written so far, parsed (other lines skipped). */
export function logLinesOf(service: ServiceProcess): Array<Record<string, unknown>> {
  return service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** True while a process with this pid exists (signal 0 checks without signalling). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
