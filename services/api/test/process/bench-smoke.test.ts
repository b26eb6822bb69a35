import { dropDatabase } from '@pfs/resource-store';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm run bench` must not rot: the built bench (`npm test` builds it) runs every suite in quick mode on this
 * test run's database and Redis prefix, with tiny data and a fraction of a second per scenario, and must print
 * every row and note of the report, each row without a failed request. Figures are not judged here (speed
 * targets stay in the bench).
 */
const repoRoot = join(__dirname, '../../../..');
const ROWS = [
  'bare Express GET /ping',
  'GET /me throughput',
  'GET /me latency',
  'GET /entries page of 200 (1k entries) latency',
  'GET /entries page of 200 (1k entries) cold',
  'GET /entries page of 200 (1k entries) unchanged data',
  'GET /entries month + category',
  'GET /entries?since= 100 changes (1k entries) latency',
  'POST /entries single entry',
  'POST /entries batch of 500',
  'POST /oauth2/token code exchange (PKCE S256) vs oidc-provider/Redis',
  'POST /oauth2/token code exchange (PKCE S256) vs oidc-provider/Postgres',
  'POST /oauth2/token refresh grant (rotation) vs oidc-provider/Redis',
  'POST /oauth2/token refresh grant (rotation) vs oidc-provider/Postgres',
  'GET /categories (page of 200)',
  'GET /budgets month, page of 200',
  'GET /budgets/{id}',
  'GET /me/summary month with budget',
  'scale GET /me ×1 (one Redis, direct)',
  'scale GET /entries page of 200 ×2 (one Redis, direct)',
  'scale POST /entries ×2 (Redis Cluster, PgBouncer)',
];
const NOTES = [
  'GET /me / bare throughput',
  "GET /me / its replay on bare Express with the app's prototypes",
  'since-sync of 100 changes, mean latency, 16 conn',
  '16 conn, 1 interleaved pairs',
  'GET /entries page of 200 (1k entries) cold: server CPU per request',
  'GET /entries page of 200 (1k entries) unchanged data: server CPU per request',
  'vs pgbench -N',
  'POST /entries batch of 500: entries/s',
  'token grants/s, code exchange (PKCE S256) (16 conn): PFS vs oidc-provider/Redis',
  'token grants/s, code exchange (PKCE S256) (16 conn): PFS vs oidc-provider/Postgres',
  'token grants/s, refresh grant (rotation) (16 conn): PFS vs oidc-provider/Redis',
  'token grants/s, refresh grant (rotation) (16 conn): PFS vs oidc-provider/Postgres',
  'token grant server CPU per grant, code exchange',
  'token grant server CPU per grant, refresh grant',
  'token check (RequestGate.check',
  'CSV export time / COPY TO STDOUT WITH CSV time',
  'XLSX export time / CSV export time',
  'export worker peak RSS after CSV',
  'POST /accounts/merge',
  'PUT /me sign',
  'scale GET /me (one Redis, direct)',
  'scale POST /entries (Redis Cluster, PgBouncer)',
  'scale load generator',
  'scale CPU GET /me ×2 (one Redis, direct)',
  'webhooks (relay every 100 ms): outbox lag commit → receiver',
  'webhooks (relay every 100 ms): delivered events/s',
  'webhooks (relay every 100 ms): server CPU per delivered event',
];
/** Rows measured at 16 connections beside a replay of the identical answer (their ceiling). */
const WITH_CEILING = [
  'GET /me',
  'GET /entries page of 200 (1k entries) cold',
  'GET /entries page of 200 (1k entries) unchanged data',
  'GET /entries?since= 100 changes (1k entries)',
  'GET /budgets month, page of 200 (1k entries, 200 budgets)',
  'GET /me/summary month with budget (1k entries, 200 budgets)',
  'POST /oauth2/token code exchange (PKCE S256) vs oidc-provider/Redis',
  'POST /oauth2/token code exchange (PKCE S256) vs oidc-provider/Postgres',
  'POST /oauth2/token refresh grant (rotation) vs oidc-provider/Redis',
  'POST /oauth2/token refresh grant (rotation) vs oidc-provider/Postgres',
];

function runBench(): Promise<{ code: number | null; output: string }> {
  const entry = join(repoRoot, 'bench/dist/main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test does) first`);
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      BENCH_DATABASE_URL: process.env.DATABASE_URL,
      BENCH_REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX,
      BENCH_QUICK: '1',
      BENCH_QUICK_SIZE: '1000',
      BENCH_ME_CURRENCY_SIZE: '200',
      BENCH_SECONDS: '0.3',
      BENCH_PAIRS: '1',
    },
    stdio: 'pipe',
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

afterAll(async () => {
  await dropDatabase(`${process.env.DATABASE_URL}_pgbench`);
  // The tokens suite's oidc-provider peer on Postgres keeps its table there.
  await dropDatabase(`${process.env.DATABASE_URL}_oidc`);
});

it('when the bench runs in quick mode, then it prints every row and note, with no failed request', async () => {
  const { code, output } = await runBench();
  if (code !== 0) throw new Error(`the bench exited with ${code}:\n${output}`);
  const lines = output.split('\n');
  for (const name of ROWS) {
    const row = lines.find((line) => line.startsWith(name));
    if (!row) throw new Error(`no row "${name}" in:\n${output}`);
  }
  const missingNotes = NOTES.filter((name) => !lines.some((line) => line.includes(name)));
  expect(missingNotes).toEqual([]);
  for (const name of WITH_CEILING) {
    const row = lines.find((line) => line.startsWith(name) && /^\s+16\s/.test(line.slice(name.length)));
    // … vs bare, then the ceiling's req/s and p99, the ratio to it, and the errors of both.
    expect(row).toMatch(/\d+%\s+\d+\s+[\d.]+\s+\d+%\s+0 {2}/);
  }
  // Every row of the table (header to the first note), with or without a ceiling: its errors column (failed
  // requests of the row and of its ceiling) is 0. Notes are not rows, even when they start with a row's name.
  const table = lines.slice(
    lines.findIndex((line) => line.startsWith('scenario')) + 1,
    lines.findIndex((line) => line.startsWith('bare baseline before/after')),
  );
  expect(table.length).toBeGreaterThanOrEqual(ROWS.length);
  const failed = table.filter((line) => !/ 0 {2}(?:met|MISSED|NO FIGURE|$)/.test(line));
  expect(failed).toEqual([]);
}, 600_000);
