import autocannon from 'autocannon';

export interface MeasureOptions {
  /** Shown in the report. */
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Concurrent connections (default 10; the issue-13 rows use 16, as many apps of one user would). */
  connections?: number;
  /** Seconds of load (default BENCH_SECONDS or 5). */
  seconds?: number;
  /** Distinct requests to cycle through, e.g. POST bodies with different idempotency keys. */
  requests?: autocannon.Request[];
  /** A project target this row is judged against in the report. */
  target?: Target;
}

/**
 * `vsBare`: throughput at least `min` (0..1) of the bare baseline; `vsCeiling`: at least `min` of the row's own
 * ceiling (the same bytes replayed by bare Express, measured just before); `p99`: p99 latency at most `maxMs`.
 */
export type Target =
  { kind: 'vsBare'; min: number } | { kind: 'vsCeiling'; min: number } | { kind: 'p99'; maxMs: number };

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Mean latency with sub-millisecond resolution (autocannon's p50 and p99 are whole milliseconds). */
  meanMs?: number;
  requests: number;
  /** Non-2xx/3xx answers and socket errors: a figure with errors is not a figure. */
  errors: number;
  connections: number;
  target?: Target;
  /** The row's own ceiling, measured in the same run with the same connections and duration. */
  ceiling?: Measurement;
}

export const defaultSeconds = () => Number(process.env.BENCH_SECONDS ?? 5);

/** A suite's data size: `full`, or with BENCH_QUICK=1 `quick` (BENCH_QUICK_SIZE overrides it, for the smoke test). */
export function dataSize(quick: boolean, full: number, quickDefault: number): number {
  if (!quick) return full;
  return Number(process.env.BENCH_QUICK_SIZE ?? quickDefault);
}

/** Runs autocannon against one endpoint and reduces its result to what we report. */
export async function measure(options: MeasureOptions): Promise<Measurement> {
  const connections = options.connections ?? 10;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections,
    duration: options.seconds ?? defaultSeconds(),
    requests: options.requests,
  });
  return {
    name: options.name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: result.latency.mean,
    requests: result.requests.total,
    errors: result.non2xx + result.errors + result.timeouts,
    connections,
    target: options.target,
  };
}

/**
 * Sends each of `bodies` exactly once (`POST`, `connections` in flight) and reports completed requests per
 * second of the whole run: for requests that can be made only once (a code, a refresh token that rotates), a
 * pool issued before the window instead of a fixed duration. `onBody` gets each answer's body.
 */
export async function measurePool(options: {
  name: string;
  url: string;
  headers: Record<string, string>;
  bodies: string[];
  connections: number;
  onBody?: (status: number, body: string) => void;
}): Promise<Measurement> {
  let next = 0;
  // autocannon notices the end of an `amount` run only at its next 1-second sample tick and reports that
  // rounded duration: a pool answered in 0.4 s would count as 1 s. The window is timed here instead, from the
  // start to the last answer.
  const started = performance.now();
  let lastAnswer = started;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    amount: options.bodies.length,
    requests: [
      {
        method: 'POST',
        headers: options.headers,
        // autocannon builds exactly one request per request sent, so each body goes out once.
        setupRequest: (request) => ({ ...request, body: options.bodies[next++] }),
        onResponse: (status, body) => {
          lastAnswer = performance.now();
          options.onBody?.(status, body);
        },
      },
    ],
  });
  const seconds = (lastAnswer - started) / 1000;
  return {
    name: options.name,
    requestsPerSecond: seconds > 0 ? result.requests.total / seconds : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.non2xx + result.errors + result.timeouts,
    connections: options.connections,
  };
}
