import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Measurement } from '../measure';
import type { LoadOptions } from './load-options';

/** wrk on the PATH (Debian's `wrk` package), or undefined. */
export function wrkBinary(): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'wrk'))
    .find((path) => existsSync(path));
}

/** A Lua long string: no escaping needed for JSON bodies and tokens (none contains `]==]`). */
const lua = (text: string) => {
  if (text.includes(']==]')) throw new Error(`cannot quote for wrk's Lua: ${text}`);
  return `[==[${text}]==]`;
};

/**
 * The script: cycles through the requests (each built once with wrk.format), or with `uniqueQuery` builds
 * each request with a fresh counter in its query (no cache can answer it), and prints the figures on one
 * line at the end (wrk's `done`: requests, duration in µs, errors, p50 and p99 in µs).
 */
function script(options: LoadOptions): string {
  const format = (request: LoadOptions['requests'][number], path: string) => {
    const headers = Object.entries(request.headers)
      .map(([name, value]) => `[ ${lua(name)} ] = ${lua(value)}`)
      .join(', ');
    const body = request.body === undefined ? 'nil' : lua(request.body);
    return `wrk.format(${lua(request.method)}, ${path}, { ${headers} }, ${body})`;
  };
  const built = options.uniqueQuery
    ? [
        `local counter = ${Math.floor(Math.random() * 1e9)}`,
        'request = function()',
        '  counter = counter + 1',
        `  return ${format(options.requests[0], `${lua(`${options.requests[0].path}&${options.uniqueQuery}=`)} .. counter`)}`,
        'end',
      ]
    : [
        // Built in init, not at load: wrk sets wrk.host (the Host header wrk.format adds) after loading.
        'local requests = {}',
        'init = function(args)',
        '  requests = {',
        ...options.requests.map((request) => `    ${format(request, lua(request.path))},`),
        '  }',
        'end',
        'local next = 0',
        'request = function()',
        '  next = next % #requests + 1',
        '  return requests[next]',
        'end',
      ];
  return [
    ...built,
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("PFS-WRK %d %d %d %d %d %d %d %d %d\\n", summary.requests, summary.duration,',
    '    e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(99)))',
    'end',
  ].join('\n');
}

/**
 * Runs wrk (C, one thread, epoll: far less CPU per request than a Node.js client, so the load generator
 * takes less of the cores the API processes share with it) for whole seconds (wrk takes no fraction: at
 * least 1 s) and reads the figures its script prints. Answers of status 400 or more count as errors (wrk's
 * `errors.status`), as do socket errors and requests without an answer within 10 s.
 */
export async function measureWithWrk(binary: string, options: LoadOptions): Promise<Measurement> {
  const dir = mkdtempSync(join(tmpdir(), 'pfs-bench-wrk-'));
  try {
    const scriptPath = join(dir, 'load.lua');
    writeFileSync(scriptPath, script(options));
    const seconds = Math.max(1, Math.round(options.seconds));
    const args = ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', scriptPath];
    const child = spawn(binary, [...args, options.baseUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    // Bounded: wrk ends by itself after the duration; one that does not is killed, and its run fails.
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    const figures = /PFS-WRK (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(output);
    if (code !== 0 || !figures) throw new Error(`wrk ${args.join(' ')} failed (${code}):\n${output}`);
    const [requests, micros, connect, read, write, status, timeout, p50, p99] = figures.slice(1).map(Number);
    return {
      name: options.name,
      requestsPerSecond: requests / (micros / 1e6),
      p50Ms: p50 / 1000,
      p99Ms: p99 / 1000,
      requests,
      errors: connect + read + write + status + timeout,
      connections: options.connections,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
