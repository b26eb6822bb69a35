import { dataSize } from '../measure';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchSuite } from '../bench-suite';
import { copyToCsvSeconds } from '../pgbench';
import { startServiceProcess } from '../service-process';
import { seedLedger } from './entries-seed';

const FULL_SIZE = 1_000_000;
const QUICK_SIZE = 20_000;
const repoRoot = join(__dirname, '../../..');
const WORKER_NODE_OPTIONS = '--max-old-space-size=128 --max-semi-space-size=4';

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
 * and to XLSX by a real worker process. Reports the time from POST to `generated` and the
 * worker's peak RSS (Linux VmHWM), which must stay flat (< 256 MB) whatever the size.
 */
export const exportsSuite: BenchSuite = {
  name: 'exports',
  async run(context) {
    const seed = await seedLedger(context, dataSize(context.quick, FULL_SIZE, QUICK_SIZE));
    const storageDir = await mkdtemp(join(tmpdir(), 'pfs-bench-exports-'));
    // BENCH_CPU_PROF=<dir>: the worker writes a V8 CPU profile there too when it stops.
    const profile = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
    // BENCH_WORKER_ENTRY: another build of the worker (a copy of its dist/ inside it), for an A/B of a change.
    const entry = process.env.BENCH_WORKER_ENTRY ?? join(repoRoot, 'services/worker/dist/main.js');
    const worker = await startServiceProcess(
      entry,
      {
        ...context.env,
        WORKER_PORT: '0',
        // The worker runs with the heap bound it has in production (scripts/start.mjs, its Dockerfile).
        NODE_OPTIONS: WORKER_NODE_OPTIONS,
        STORAGE_DRIVER: 'fs',
        STORAGE_DIR: storageDir,
      },
      undefined,
      profile,
    );
    try {
      // The floor: Postgres writing the same rows (the worker's entries query, each side) as CSV itself.
      let copySeconds = 0;
      for (const sign of ['<', '>'] as const) {
        copySeconds += await copyToCsvSeconds(
          context.env.DATABASE_URL,
          entriesExportQuery(seed.userId, sign),
        );
      }
      const idle = worker.peakRssBytes();
      context.note('export worker peak RSS at start', `${(idle / 2 ** 20).toFixed(0)} MB`);
      const took: Record<string, number> = {};
      for (const format of ['csv', 'xlsx'] as const) {
        const { seconds, filesize } = await timeExport(context.apiUrl, seed.auth, format);
        took[format] = seconds;
        context.note(
          `export ${seed.entries} entries to ${format.toUpperCase()}: POST → generated`,
          `${seconds.toFixed(1)} s (${(filesize / 2 ** 20).toFixed(1)} MB file)`,
        );
        context.note(
          `export worker peak RSS after ${format.toUpperCase()}`,
          `${(worker.peakRssBytes() / 2 ** 20).toFixed(0)} MB (target <= 160 MB)`,
        );
      }
      context.compare(
        'CSV export time / COPY TO STDOUT WITH CSV time; target <= 3',
        took.csv,
        'COPY',
        copySeconds,
        's',
      );
      context.compare('XLSX export time / CSV export time; target <= 2', took.xlsx, 'CSV', took.csv, 's');
    } finally {
      await worker.stop();
      await rm(storageDir, { recursive: true, force: true });
    }
  },
};

/** The export worker's entries query (services/worker/src/export/export-tables.ts), one side. */
function entriesExportQuery(userId: string, sign: '<' | '>'): string {
  if (!/^\d+$/.test(userId)) throw new Error(`unexpected user id ${userId}`);
  return `SELECT to_char(t.date, 'YYYY-MM-DD') AS date, a.name AS account, c.name AS category,
      CASE WHEN cardinality(t.tag_ids) = 0 THEN NULL
        ELSE (SELECT string_agg(g.name, ', ' ORDER BY g.name) FROM tags g WHERE g.id = ANY(t.tag_ids)) END AS tags,
      trim_scale(t.amount)::text AS amount, t.currency, t.description, t.location->>'id' AS location, t.id::text AS id
    FROM entries t JOIN accounts a ON a.id = t.account_id LEFT JOIN categories c ON c.id = t.category_id
    WHERE t.user_id = ${userId} AND NOT t.deleted AND t.amount ${sign} 0 AND t.transaction_id IS NULL
    ORDER BY t.date, t.id`;
}
