import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each service as a real process, from its build (`npm test` builds before Jest runs): it starts, answers
 * /health, stops on SIGTERM with exit 0, and a start-up failure exits non-zero with a readable reason.
 */
const repoRoot = join(__dirname, '../../../..');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startService(name: string, env: Record<string, string>): Started {
  const entry = join(repoRoot, `services/${name}/dist/main.js`);
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test does) first`);
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: 'pipe',
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function waitForUrl(started: Started, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /"url":"(http:\/\/[^"]+)"/.exec(started.output());
    if (match) return match[1];
    if (started.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`service did not start:\n${started.output()}`);
}

const services = [
  { name: 'auth', portVariable: 'AUTH_PORT' },
  { name: 'api', portVariable: 'API_PORT' },
  { name: 'worker', portVariable: 'WORKER_PORT' },
];

describe.each(services)('$name process', ({ name, portVariable }) => {
  it('when started, then /health answers 200; on SIGTERM it drains, closes and exits 0', async () => {
    const started = startService(name, { [portVariable]: '0' });
    try {
      const url = await waitForUrl(started);
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
      expect(await (await fetch(`${url}/health/ready`)).json()).toMatchObject({ status: 'ok', failed: [] });
      started.child.kill('SIGTERM');
      const { code } = await started.exited;
      expect(code).toBe(0);
      expect(started.output()).toContain(`${name} stopped`);
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('when Redis cannot be reached at start, then it exits 1 saying so', async () => {
    const started = startService(name, {
      [portVariable]: '0',
      REDIS_URL: 'redis://127.0.0.1:1/0',
      STARTUP_RETRY_SECONDS: '0',
    });
    const { code } = await started.exited;
    expect(code).toBe(1);
    expect(started.output()).toMatch(new RegExp(`${name} failed to start: .*(Redis|ECONNREFUSED)`));
  });

  it('when a variable is invalid, then it exits 1 naming the variable and its rule', async () => {
    const started = startService(name, { [portVariable]: 'eighty' });
    const { code } = await started.exited;
    expect(code).toBe(1);
    expect(started.output()).toContain(`${portVariable}: must be an integer (got "eighty")`);
  });
});
