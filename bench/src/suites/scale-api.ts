import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from '../bench-context';
import { startServiceProcess, type ServiceProcess } from '../service-process';
import type { Store } from './scale-stores';

const repoRoot = join(__dirname, '../../..');
/** How long the API may take until every worker listens (a loaded machine starts four in well under this). */
const START_TIMEOUT_MS = 90_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the API with API_WORKERS=`workers` and waits until every worker logged "api listening" (the port
 * answers as soon as one does, and a measurement must have them all). A worker that dies is replaced by the
 * primary and waited for; a crash loop (more deaths than twice the workers) or a start longer than 90 s stops
 * the whole process tree and fails with the reason and the log's end.
 */
export async function startScaledApi(
  context: BenchContext,
  store: Store,
  workers: number,
): Promise<ServiceProcess> {
  const started = Date.now();
  const api = await startServiceProcess(
    join(repoRoot, 'services/api/dist/main.js'),
    {
      ...context.env,
      ...store.env,
      API_PORT: '0',
      API_WORKERS: String(workers),
      REPEAT_MATERIALIZE_INTERVAL_SECONDS: '0',
    },
    START_TIMEOUT_MS,
  );
  const log = () => readFileSync(api.logFile, 'utf8');
  const count = (text: string, msg: string) => text.split(`"msg":"${msg}"`).length - 1;
  for (;;) {
    const text = log();
    const listening = count(text, 'api listening');
    if (listening >= workers) return api;
    const died = count(text, 'api worker died');
    const late = Date.now() - started > START_TIMEOUT_MS;
    if (died > 2 * workers || late) {
      await api.stop();
      const why = late ? 'not all listening after 90 s' : 'its workers keep dying';
      throw new Error(
        `the API with API_WORKERS=${workers} (${store.name}) did not start: ${why}, ${listening} of ` +
          `${workers} listening, ${died} worker death(s) (load average ${loadavg()[0].toFixed(1)}); ` +
          `its log ends:\n${text.slice(-3000)}`,
      );
    }
    await sleep(100);
  }
}
