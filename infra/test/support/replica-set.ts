import { join } from 'node:path';
import { ServiceProcess, startNodeProcess, waitForOutput } from '@pfs/testing';
import { repoRoot } from './compose-file';

export type ServiceName = 'api' | 'auth' | 'worker';

const portVariable: Record<ServiceName, string> = {
  api: 'API_PORT',
  auth: 'AUTH_PORT',
  worker: 'WORKER_PORT',
};

/** One running replica: its process and the address it listens on. */
export interface Replica {
  process: ServiceProcess;
  url: string;
  /** Its log lines so far, parsed (non-JSON lines are skipped). */
  lines(): Array<Record<string, unknown>>;
}

const listeningUrl = (output: string) => /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];

export function logLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** Every process `startReplicas` started and `stopStartedReplicas` has not stopped yet. */
const started = new Set<ServiceProcess>();

/**
 * Stops every replica started so far, including those of a `startReplicas` call that failed (one process did
 * not come up) or whose result a failing `Promise.all` never handed to the test: nothing is left running.
 */
export async function stopStartedReplicas(): Promise<void> {
  const all = [...started];
  started.clear();
  await Promise.all(all.map((process) => process.stop()));
}

/** Starts `count` processes of a built service (dist/main.js) on ports of their own, with `env`. */
export async function startReplicas(
  service: ServiceName,
  count: number,
  env: Record<string, string>,
): Promise<Replica[]> {
  const entry = join(repoRoot, `services/${service}/dist/main.js`);
  const processes = Array.from({ length: count }, () =>
    startNodeProcess([entry], { ...env, [portVariable[service]]: '0' }),
  );
  processes.forEach((process) => started.add(process));
  return Promise.all(
    processes.map(async (process) => ({
      process,
      // Nine processes start at once beside the run's other suites: minutes on a loaded machine.
      url: await waitForOutput(process, listeningUrl, 150_000),
      lines: () => logLines(process.output()),
    })),
  );
}

/** Polls `find` until it returns a value (or fails after `timeoutMs`, naming `what`). */
export async function eventually<T>(what: string, find: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await find();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A browser's cookie jar over fetch, across every replica of one service (they share one host). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', this.header());
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.keep(response);
    return response;
  }
}
