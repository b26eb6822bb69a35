import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { defaultSeconds, measure } from '../measure';
import { pgbenchSimpleUpdateTps } from '../pgbench';
import { PostgresCpu } from '../postgres-cpu';
import { cpuMillisOf } from '../service-process';
import { entryBody } from './entries.bench';
import { seedLedger } from './entries-seed';

const CONNECTIONS = 16;
const BATCH = 500;

/** A fresh user with one account and one category, made through the API; the entry body it posts. */
async function writerUser(context: BenchContext, index: number) {
  const user = await context.createUser();
  const post = async (path: string, body: object) => {
    const answer = await fetch(`${context.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: user.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.status !== 201) throw new Error(`POST ${path} answered ${answer.status}`);
    return ((await answer.json()) as { id: string }).id;
  };
  const account = await post('/accounts', { name: `Writer ${index}`, currency: { code: 'EUR' } });
  const category = await post('/categories', { name: `Writes ${index}`, type: 'expense' });
  const body = {
    amount: -1,
    currency: { code: 'EUR' },
    date: '2025-05-09',
    account,
    category,
    desc: 'bench',
  };
  return { auth: user.auth, body: JSON.stringify(body) };
}

/**
 * A measurement and the CPU time (/proc) per request of it of the API and of its Postgres backends, in ms:
 * steadier than req/s on a shared machine (a write's cost is about half in each).
 */
async function measureWithCpu(context: BenchContext, options: Parameters<BenchContext['measure']>[0]) {
  const before = cpuMillisOf(context.apiPid);
  const postgres = await PostgresCpu.begin(context.pg, 'pfs-api');
  const row = await context.measure(options);
  const requests = Math.max(row.requests, 1);
  const cpu = (cpuMillisOf(context.apiPid) - before) / requests;
  const database = (await postgres.spentSince()) / requests;
  context.note(
    `${options.name}: API CPU per request`,
    `${cpu.toFixed(2)} ms (Postgres ${database.toFixed(2)} ms more)`,
  );
  return row;
}

/**
 * Writes beside their floor: `POST /entries` of one entry (balance, revision and sync sequence in one
 * transaction) at 16 connections, then `pgbench -N` (simple-update transactions) on the same Postgres server
 * with the same connections and duration; and a batch create of 500 entries a request, in entries/s (one
 * connection: a user's writes take the user's write lock in turn). Uses its own 1,000-entry user so the ledger
 * user's data stays as seeded.
 *
 * The target row is the issue's: 16 connections of ONE user (a user's apps), whose writes take the user's
 * write lock in turn, so it measures how long a write holds that lock as well as its cost. The 16-users row
 * beside it (one user per connection) is for information: the write path's cost without that queue.
 */
export const writesSuite: BenchSuite = {
  name: 'writes',
  async run(context) {
    const seed = await seedLedger(context, 1_000, 'writes');
    const headers = { authorization: seed.auth, 'content-type': 'application/json' };
    const writers = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, index) => writerUser(context, index)),
    );
    const single = {
      url: `${context.apiUrl}/entries`,
      method: 'POST' as const,
      headers,
      body: JSON.stringify(entryBody(seed, 0, 'bench')),
      connections: CONNECTIONS,
    };
    // Not recorded: when this suite runs alone the target row was the API process's first load, so its
    // figures held the JIT's warm-up (the write lane's profile, session 6); every other row follows a row.
    await measure({ ...single, name: 'warm-up', seconds: Math.min(2, defaultSeconds()) });
    const oneUser = await measureWithCpu(context, {
      ...single,
      name: `POST /entries single entry, one user`,
    });
    let nextWriter = 0;
    const manyUsers = await measureWithCpu(context, {
      name: `POST /entries single entry, ${CONNECTIONS} users`,
      url: `${context.apiUrl}/entries`,
      method: 'POST',
      connections: CONNECTIONS,
      requests: [
        {
          // One user per connection (autocannon's per-connection context).
          setupRequest: (request, connection) => {
            const writer = ((connection as { writer?: (typeof writers)[number] }).writer ??=
              writers[nextWriter++ % writers.length]);
            return {
              ...request,
              method: 'POST',
              headers: { authorization: writer.auth, 'content-type': 'application/json' },
              body: writer.body,
            };
          },
        },
      ],
    });
    const tps = await pgbenchSimpleUpdateTps(context.env.DATABASE_URL, CONNECTIONS, defaultSeconds());
    context.compare(
      `POST /entries single (${CONNECTIONS} conn, one user) vs pgbench -N (${CONNECTIONS} clients); target >= 0.25`,
      oneUser.requestsPerSecond,
      'pgbench -N',
      tps,
      'tx/s',
    );
    context.compare(
      `POST /entries single (${CONNECTIONS} conn, ${CONNECTIONS} users) vs pgbench -N (${CONNECTIONS} clients), for information`,
      manyUsers.requestsPerSecond,
      'pgbench -N',
      tps,
      'tx/s',
    );
    const batch = await measureWithCpu(context, {
      name: `POST /entries batch of ${BATCH}`,
      url: `${context.apiUrl}/entries`,
      method: 'POST',
      headers,
      body: JSON.stringify(Array.from({ length: BATCH }, (_, index) => entryBody(seed, index, 'batch'))),
      connections: 1,
    });
    context.note(
      `POST /entries batch of ${BATCH}: entries/s (target >= 5,000)`,
      (batch.requestsPerSecond * BATCH).toFixed(0),
    );
  },
};
