import { readFileSync } from 'node:fs';
import { measure, type Measurement } from '../measure';
import type { LoadOptions } from './load-options';
import { measureWithWrk, wrkBinary } from './wrk';

export type Generator = 'wrk' | 'autocannon';

/**
 * The scale suite's load generator: wrk when it is installed (BENCH_LOAD_GENERATOR=autocannon forces the
 * fallback), else autocannon in this process. On a machine of few cores the generator takes some of the cores
 * it measures: autocannon about as much CPU per request as the API it loads, wrk a fraction of it.
 */
export function chosenGenerator(): Generator {
  const asked = process.env.BENCH_LOAD_GENERATOR;
  if (asked === 'autocannon') return 'autocannon';
  if (wrkBinary()) return 'wrk';
  if (asked === 'wrk')
    throw new Error('BENCH_LOAD_GENERATOR=wrk but no wrk on the PATH (apt-get install wrk)');
  return 'autocannon';
}

/** This process's CPU time so far, own and of its ended children (wrk, once it has exited), in ms. */
export function generatorCpuMillis(): { own: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime: fields 14 to 17 of proc(5), in ticks of 10 ms.
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return { own: (utime + stime) * 10, children: (cutime + cstime) * 10 };
}

export async function generateLoad(generator: Generator, options: LoadOptions): Promise<Measurement> {
  const binary = wrkBinary();
  if (generator === 'wrk' && binary) return measureWithWrk(binary, options);
  let counter = Math.floor(Math.random() * 1e9);
  const [first] = options.requests;
  return measure({
    name: options.name,
    url: `${options.baseUrl}${first.path}`,
    connections: options.connections,
    seconds: options.seconds,
    requests: options.uniqueQuery
      ? [
          {
            method: first.method,
            headers: first.headers,
            setupRequest: (request) => {
              counter += 1;
              return { ...request, path: `${first.path}&${options.uniqueQuery}=${counter}` };
            },
          },
        ]
      : options.requests,
  });
}
