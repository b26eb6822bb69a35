import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { ensureDatabase } from '@pfs/resource-store';

const run = promisify(execFile);

/** The newest installed PostgreSQL's binary directory (Debian layout). */
export function postgresBin(tool: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return `/usr/lib/postgresql/${versions[0]}/bin/${tool}`;
}

/** The connection options of a postgres:// URL, for the command-line tools. */
function cliArgs(url: URL): string[] {
  return ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres')];
}

/**
 * `pgbench -N` (simple update: one UPDATE of pgbench_accounts, a SELECT and an INSERT into pgbench_history in
 * one transaction) on the same Postgres server, in its own database (`<bench database>_pgbench`, initialised
 * each run at scale 1) so nothing of PFS's is touched. Returns transactions per second.
 */
export async function pgbenchSimpleUpdateTps(
  databaseUrl: string,
  connections: number,
  seconds: number,
): Promise<number> {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}_pgbench`;
  await ensureDatabase(url.toString());
  const database = url.pathname.slice(1);
  await run(postgresBin('pgbench'), [...cliArgs(url), '-i', '-q', '-s', '1', database]);
  const { stdout } = await run(postgresBin('pgbench'), [
    ...cliArgs(url),
    '-N',
    '-n',
    '-c',
    String(connections),
    '-j',
    '2',
    '-T',
    String(Math.max(1, Math.round(seconds))),
    database,
  ]);
  const match = /tps = ([\d.]+)/.exec(stdout);
  if (!match) throw new Error(`pgbench printed no tps:\n${stdout}`);
  return Number(match[1]);
}

/** Seconds Postgres takes to run `COPY (query) TO STDOUT WITH CSV` through psql, output discarded. */
export async function copyToCsvSeconds(databaseUrl: string, query: string): Promise<number> {
  const url = new URL(databaseUrl);
  const started = process.hrtime.bigint();
  await run(
    postgresBin('psql'),
    [
      ...cliArgs(url),
      '-X',
      '-q',
      '-o',
      '/dev/null',
      '-c',
      `COPY (${query}) TO STDOUT WITH CSV HEADER`,
      url.pathname.slice(1),
    ],
    { maxBuffer: 1024 * 1024 },
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}
