import { join } from 'node:path';
import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { recordReplay } from '../ceiling';
import { measure, Measurement, MeasureOptions } from '../measure';
import { cpuMillisOf, startServiceProcess } from '../service-process';

/** Interleaved pairs: enough to see the spread, short enough to keep the suite under a minute. */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 5);
const PAIR_SECONDS = Math.min(2, Number(process.env.BENCH_SECONDS ?? 2));

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const spread = (values: number[], format: (value: number) => string) =>
  `median ${format(median(values))} (min ${format(Math.min(...values))}, max ${format(Math.max(...values))})`;

/** A measurement with the CPU the serving process spent on it, per request. */
async function measureWithCpu(options: MeasureOptions, pid: number) {
  const before = cpuMillisOf(pid);
  const result: Measurement = await measure(options);
  if (result.errors) throw new Error(`${options.name}: ${result.errors} errors`);
  return { result, cpuMicrosPerRequest: ((cpuMillisOf(pid) - before) * 1000) / result.requests };
}

/**
 * Authenticated GET /me: token lookup, rate limit and the cached profile, in one Redis round trip. Target:
 * throughput at 10 connections >= 60% of the bare Express endpoint's; its single-client latency is shown
 * beside it.
 * The ratio is also measured in interleaved pairs (bare, then /me; same client, connections and duration),
 * so load from other processes hits both sides of each ratio alike, with the CPU each server process spent
 * per request: that figure barely moves with the machine's load, and a CPU-bound server's throughput is
 * its inverse.
 */
export const meSuite: BenchSuite = {
  name: 'me',
  async run(context) {
    const user = await context.createUser();
    const request = { url: `${context.apiUrl}/me`, headers: { authorization: user.auth } };
    await context.measure({
      ...request,
      name: 'GET /me throughput',
      connections: 10,
      target: { kind: 'vsBare', min: 0.6 },
    });
    await context.measure({ ...request, name: 'GET /me latency', connections: 1 });
    // Issue 13: at 16 connections, beside bare Express replaying the identical bytes and headers.
    await context.measureBesideReplay({
      ...request,
      name: 'GET /me',
      connections: 16,
      target: { kind: 'vsCeiling', min: 0.6 },
    });

    const ratios: number[] = [];
    const bareCpu: number[] = [];
    const meCpu: number[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const bare = await measureWithCpu(
        { name: 'bare', url: `${context.bareUrl}/ping`, seconds: PAIR_SECONDS },
        context.barePid,
      );
      const me = await measureWithCpu({ ...request, name: 'GET /me', seconds: PAIR_SECONDS }, context.apiPid);
      ratios.push(me.result.requestsPerSecond / bare.result.requestsPerSecond);
      bareCpu.push(bare.cpuMicrosPerRequest);
      meCpu.push(me.cpuMicrosPerRequest);
    }
    const micros = (value: number) => `${value.toFixed(0)} µs`;
    const pairs = `${PAIRS} interleaved pairs of ${PAIR_SECONDS} s, 10 conn`;
    context.note(`GET /me / bare throughput, ${pairs}`, `${spread(ratios, percent)}; target 60%`);
    context.note(
      `server CPU per request, ${pairs}`,
      `bare ${spread(bareCpu, micros)}; GET /me ${spread(meCpu, micros)}`,
    );
    context.note(
      'bare CPU / GET /me CPU per request (medians): the throughput ratio of CPU-bound servers',
      percent(median(bareCpu) / median(meCpu)),
    );
    await besideTunedReplay(context, request, micros);
  },
};

/**
 * The API's server creates requests and responses with the Express app's prototypes (libs/http
 * app-prototypes.ts), which spares it Express's per-request prototype switch; the ceiling, bare
 * Express, still pays that switch. So the same answer is also replayed by a bare Express server started
 * with that option, in interleaved pairs with `GET /me`: the ratio to a ceiling that has the API's own
 * server tuning, printed beside the issue's.
 */
async function besideTunedReplay(
  context: BenchContext,
  request: { url: string; headers: Record<string, string> },
  micros: (value: number) => string,
) {
  const tuned = await startServiceProcess(join(__dirname, '../servers/bare-server.js'), {
    BARE_APP_PROTOTYPES: '1',
  });
  try {
    const replayUrl = await recordReplay(tuned.url, 'me-tuned', request.url, request.headers);
    const ratios: number[] = [];
    const tunedCpu: number[] = [];
    const meCpu: number[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const replay = await measureWithCpu(
        { name: 'tuned replay', url: replayUrl, connections: 16, seconds: PAIR_SECONDS },
        tuned.child.pid!,
      );
      const me = await measureWithCpu(
        { ...request, name: 'GET /me', connections: 16, seconds: PAIR_SECONDS },
        context.apiPid,
      );
      ratios.push(me.result.requestsPerSecond / replay.result.requestsPerSecond);
      tunedCpu.push(replay.cpuMicrosPerRequest);
      meCpu.push(me.cpuMicrosPerRequest);
    }
    const pairs = `${PAIRS} interleaved pairs of ${PAIR_SECONDS} s, 16 conn`;
    context.note(
      `GET /me / its replay on bare Express with the app's prototypes, ${pairs}`,
      `${spread(ratios, percent)}; CPU per request: replay ${spread(tunedCpu, micros)}, GET /me ${spread(meCpu, micros)}`,
    );
  } finally {
    await tuned.stop();
  }
}
