import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchSuite } from '../bench-suite';
import { startServiceProcess } from '../service-process';
import { seedLedger } from './entries-seed';

const FULL_SIZE = 1_000_000;
const QUICK_SIZE = 20_000;
const repoRoot = join(__dirname, '../../..');
const EXPORT_WORKER_NODE_OPTIONS = '--max-old-space-size=128';

/** POSTs an export and polls it until its file is generated; returns the seconds from POST to generated. */
async function timeExport(
  apiUrl: string,
  auth: string,
  format: 'csv' | 'xlsx',
): Promise<{ seconds: number; filesize: number }> {
  const headers = { authorization: auth, 'content-type': 'application/json', accept: 'application/json' };
  const started = Date.now();
  const created = await fetch(`${apiUrl}/exports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'export', resources: ['expenses', 'incomes'], formats: [format] }),
  });
  if (created.status !== 201)
    throw new Error(`POST /exports answered ${created.status}: ${await created.text()}`);
  const location = created.headers.get('location')!;
  const id = location.split('/').pop();
  for (;;) {
    const answer = await fetch(`${apiUrl}/exports/${id}`, { headers });
    const body = (await answer.json()) as { status: string; error?: string; data?: { filesize: number } };
    if (['generated', 'sending', 'sent'].includes(body.status)) {
      return { seconds: (Date.now() - started) / 1000, filesize: body.data?.filesize ?? 0 };
    }
    if (body.status === 'error') throw new Error(`export ${id} failed: ${body.error}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Exports at scale: the seeded ledger user (1,000,000 entries; BENCH_QUICK=1: 20,000) exported to CSV
 * and to XLSX by a real export-worker process. Reports the time from POST to `generated` and the
 * worker's peak RSS (Linux VmHWM), which must stay flat (< 256 MB) whatever the size.
 */
export const exportsSuite: BenchSuite = {
  name: 'exports',
  async run(context) {
    const seed = await seedLedger(context, context.quick ? QUICK_SIZE : FULL_SIZE);
    const storageDir = await mkdtemp(join(tmpdir(), 'pfs-bench-exports-'));
    const worker = await startServiceProcess(join(repoRoot, 'services/export-worker/dist/main.js'), {
      ...context.env,
      WORKER_PORT: '0',
      // The worker runs with the heap bound it has in production (scripts/start.mjs, its Dockerfile).
      NODE_OPTIONS: EXPORT_WORKER_NODE_OPTIONS,
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: storageDir,
    });
    try {
      const idle = worker.peakRssBytes();
      context.note('export worker peak RSS at start', `${(idle / 2 ** 20).toFixed(0)} MB`);
      for (const format of ['csv', 'xlsx'] as const) {
        const { seconds, filesize } = await timeExport(context.apiUrl, seed.auth, format);
        context.note(
          `export ${seed.entries} entries to ${format.toUpperCase()}: POST → generated`,
          `${seconds.toFixed(1)} s (${(filesize / 2 ** 20).toFixed(1)} MB file)`,
        );
        context.note(
          `export worker peak RSS after ${format.toUpperCase()}`,
          `${(worker.peakRssBytes() / 2 ** 20).toFixed(0)} MB`,
        );
      }
    } finally {
      await worker.stop();
      await rm(storageDir, { recursive: true, force: true });
    }
  },
};
