import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { openAsBlob, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { dataSize } from '../measure';
import { startServiceProcess } from '../service-process';
import { issueToken } from './entries-seed';

const FULL_ROWS = 100_000;
const QUICK_ROWS = 5_000;
const repoRoot = join(__dirname, '../../..');

/** Writes `rows` lines made by `line` to a file, honouring back-pressure (the file is never in memory). */
async function writeFile(path: string, head: string, rows: number, line: (i: number) => string, tail = '') {
  const out = createWriteStream(path);
  out.write(head);
  for (let i = 0; i < rows; i += 1) {
    if (!out.write(line(i))) await once(out, 'drain');
  }
  out.end(tail);
  await once(out, 'finish');
}

const day = (i: number) => {
  const date = new Date(Date.UTC(2020, 0, 1) + (i % 2000) * 86_400_000);
  return date.toISOString().slice(0, 10);
};
const amount = (i: number) =>
  `${i % 7 === 0 ? '' : '-'}${(i % 9000) + 1}.${String(i % 100).padStart(2, '0')}`;

/** POSTs a file to /imports and polls it until `imported`; returns the seconds from POST to imported. */
async function timeImport(context: BenchContext, auth: string, account: string, path: string, name: string) {
  const form = new FormData();
  form.set('account', account);
  form.set('file', await openAsBlob(path), name);
  const started = Date.now();
  const created = await fetch(`${context.apiUrl}/imports`, {
    method: 'POST',
    headers: { authorization: auth, accept: 'application/json' },
    body: form,
  });
  if (created.status !== 201)
    throw new Error(`POST /imports answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  for (;;) {
    const answer = await fetch(`${context.apiUrl}/imports/${id}`, {
      headers: { authorization: auth, accept: 'application/json' },
    });
    const body = (await answer.json()) as { status: string; entries_created: number; error?: unknown };
    if (body.status === 'imported')
      return { seconds: (Date.now() - started) / 1000, created: body.entries_created };
    if (body.status === 'error') throw new Error(`import ${id} failed: ${JSON.stringify(body.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function newAccount(context: BenchContext, auth: string, name: string): Promise<string> {
  const answer = await fetch(`${context.apiUrl}/accounts`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ name, currency: { code: 'EUR' }, initial_balance: 0 }),
  });
  if (answer.status !== 201) throw new Error(`POST /accounts answered ${answer.status}`);
  return String(answer.headers.get('location')).split('/').pop()!;
}

/**
 * Imports at scale: a 100,000-row CSV and a 100,000-transaction OFX (BENCH_QUICK=1: 5,000), generated on the
 * fly, each imported by a real worker process into a new account of a new user. Reports rows/s (POST to
 * imported: upload, parsing pass, importing pass) and the worker's peak RSS (Linux VmHWM): the file streams,
 * so it must stay flat whatever the size.
 */
export const importsSuite: BenchSuite = {
  name: 'imports',
  async run(context) {
    const rows = dataSize(context.quick, FULL_ROWS, QUICK_ROWS);
    const dir = await mkdtemp(join(tmpdir(), 'pfs-bench-imports-'));
    const worker = await startServiceProcess(join(repoRoot, 'services/worker/dist/main.js'), {
      ...context.env,
      WORKER_PORT: '0',
      NODE_OPTIONS: '--max-old-space-size=128 --max-semi-space-size=4',
      // The API's storage (its default, var/storage under the repository): the worker reads what it stored.
    });
    try {
      const email = `bench-imports-${Date.now()}@example.com`;
      const user = await context.pg.query(`INSERT INTO users (email) VALUES ($1) RETURNING id::text`, [
        email,
      ]);
      const auth = await issueToken(context, user.rows[0].id);
      const csv = join(dir, 'statement.csv');
      await writeFile(
        csv,
        'Date,Amount,Description,Category,Tags\n',
        rows,
        (i) => `${day(i)},${amount(i)},"Shop ${i % 500}, ref ${i}",Category ${i % 20},tag${i % 10}\n`,
      );
      const ofx = join(dir, 'statement.ofx');
      await writeFile(
        ofx,
        'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKTRANLIST>\n',
        rows,
        (i) =>
          `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>${day(i).replace(/-/g, '')}<TRNAMT>${amount(i)}<FITID>F${i}<NAME>Payee ${i % 500}<MEMO>ref ${i}</STMTTRN>\n`,
        '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
      );
      context.note('import worker peak RSS at start', `${(worker.peakRssBytes() / 2 ** 20).toFixed(0)} MB`);
      for (const [format, path] of [
        ['CSV', csv],
        ['OFX', ofx],
      ] as const) {
        const account = await newAccount(context, auth, `Bench ${format}`);
        const size = (await stat(path)).size;
        const { seconds, created } = await timeImport(
          context,
          auth,
          account,
          path,
          `statement.${format.toLowerCase()}`,
        );
        if (created !== rows) throw new Error(`the ${format} import created ${created} entries, not ${rows}`);
        context.note(
          `import ${rows} ${format} rows (${(size / 2 ** 20).toFixed(1)} MB): POST → imported`,
          `${seconds.toFixed(1)} s, ${(rows / seconds).toFixed(0)} rows/s`,
        );
        context.note(
          `import worker peak RSS after ${format}`,
          `${(worker.peakRssBytes() / 2 ** 20).toFixed(0)} MB`,
        );
      }
    } catch (error) {
      // The worker's own lines say why an import failed; its log file goes with stop().
      const lines = readFileSync(worker.logFile, 'utf8').trim().split('\n');
      process.stderr.write(`import worker log (last lines):\n${lines.slice(-20).join('\n')}\n`);
      throw error;
    } finally {
      await worker.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
