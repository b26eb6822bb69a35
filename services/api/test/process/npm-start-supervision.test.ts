import { isProcessAlive as alive } from '@pfs/testing';
import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm start` (scripts/start.mjs) as an operator runs it, against this run's database and a Redis prefix
 * of its own, every service on a free port: a crashed service is restarted while the others keep
 * serving; SIGTERM, and a Ctrl-C sent to the whole process group, drain every service and exit 0 with
 * no service left listening.
 */
const repoRoot = join(__dirname, '../../../..');
const SERVICES = ['auth', 'api', 'worker'] as const;
type Service = (typeof SERVICES)[number];

interface Stack {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

let storageDir: string;
beforeAll(async () => {
  storageDir = await mkdtemp(join(tmpdir(), 'pfs-npm-start-'));
});
afterAll(() => rm(storageDir, { recursive: true, force: true }));

function startStack(): Stack {
  const child = spawn(process.execPath, [join(repoRoot, 'scripts/start.mjs')], {
    env: {
      ...process.env,
      API_PORT: '0',
      AUTH_PORT: '0',
      WORKER_PORT: '0',
      STORAGE_DIR: storageDir,
      REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}start-${Math.random().toString(36).slice(2, 8)}:`,
      START_RESTART_DELAY_MS: '200',
      LOG_LEVEL: 'info',
    },
    // Its own process group, so the test can signal the group as a terminal's Ctrl-C does.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** The pid of each service process the supervisor runs now (from /proc: its children and their command). */
function servicePids(supervisor: number): Partial<Record<Service, number>> {
  const found: Partial<Record<Service, number>> = {};
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== supervisor) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const name = SERVICES.find((service) => command.includes(`services/${service}/dist/main.js`));
      if (name) found[name] = Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** The url of each service's latest "listening"/"running" line, with its current pid. */
function listening(stack: Stack): Partial<Record<Service, { url: string; pid: number }>> {
  const pids = servicePids(stack.child.pid!);
  const found: Partial<Record<Service, { url: string; pid: number }>> = {};
  for (const line of stack.output().split('\n')) {
    const match = /^\[(auth|api|worker)\] (\{.*\})$/.exec(line);
    if (!match) continue;
    const entry = JSON.parse(match[2]) as { url?: string };
    const name = match[1] as Service;
    if (entry.url && pids[name]) found[name] = { url: entry.url, pid: pids[name] };
  }
  return found;
}

async function waitFor<T>(what: string, stack: Stack, probe: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${stack.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const allListening = (stack: Stack) => {
  const found = listening(stack);
  return SERVICES.every((name) => found[name])
    ? (found as Record<Service, { url: string; pid: number }>)
    : undefined;
};

/** True when nothing accepts connections on the url's port any more. */
const portReleased = (url: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

async function expectAllGone(services: Record<Service, { url: string; pid: number }>) {
  for (const { url, pid } of Object.values(services)) {
    expect(alive(pid)).toBe(false);
    expect(await portReleased(url)).toBe(true);
  }
}

it('when a service crashes, then it alone is restarted; SIGTERM then stops every service and exits 0', async () => {
  const stack = startStack();
  try {
    const before = await waitFor('start', stack, () => allListening(stack));
    process.kill(before.api.pid, 'SIGKILL');
    const apiStarts = () => stack.output().match(/\[api\] \{.*"msg":"api listening"/g)?.length ?? 0;
    const restarted = await waitFor('api restart', stack, () => {
      const api = listening(stack).api;
      return api && api.pid !== before.api.pid && apiStarts() === 2 ? api : undefined;
    });
    expect(stack.output()).toMatch(/\[api\] exited \(SIGKILL\); restarting in 200 ms/);
    expect((await fetch(`${restarted.url}/health`)).status).toBe(200);
    // The others never stopped.
    expect(alive(before.auth.pid)).toBe(true);
    expect(alive(before['worker'].pid)).toBe(true);
    expect((await fetch(`${before.auth.url}/health`)).status).toBe(200);

    stack.child.kill('SIGTERM');
    expect(await stack.exited).toBe(0);
    await expectAllGone({ ...before, api: restarted });
  } finally {
    stack.child.kill('SIGKILL');
  }
}, 120_000);

it('when Ctrl-C reaches the whole process group, then each service drains once and everything exits 0', async () => {
  const stack = startStack();
  try {
    const services = await waitFor('start', stack, () => allListening(stack));
    // An idle keep-alive connection must not hold the api's shutdown open.
    await fetch(`${services.api.url}/health`, { keepalive: true });
    const signalled = Date.now();
    process.kill(-stack.child.pid!, 'SIGINT');
    expect(await stack.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(15_000);
    for (const name of SERVICES) expect(stack.output()).toContain(`${name} stopped`);
    expect(stack.output()).not.toContain('second signal');
    await expectAllGone(services);
  } finally {
    stack.child.kill('SIGKILL');
  }
}, 120_000);
