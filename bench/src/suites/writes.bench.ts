import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { defaultSeconds } from '../measure';
import { pgbenchSimpleUpdateTps } from '../pgbench';
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
 * Writes beside their floor: `POST /entries` of one entry (balance, revision and sync sequence in one
 * transaction) at 16 connections, then `pgbench -N` (simple-update transactions) on the same Postgres server
 * with the same connections and duration; and a batch create of 500 entries a request, in entries/s (one
 * connection: a user's writes take the user's write lock in turn). Uses its own 1,000-entry user so the ledger
 * user's data stays as seeded.
 */
export const writesSuite: BenchSuite = {
  name: 'writes',
  async run(context) {
    const seed = await seedLedger(context, 1_000, 'writes');
    const headers = { authorization: seed.auth, 'content-type': 'application/json' };
    // As many apps of many users write: one user per connection (autocannon's per-connection context), so
    // the figure is the write path's cost, not 16 writes queued on one user's write lock.
    const writers = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, index) => writerUser(context, index)),
    );
    let nextWriter = 0;
    const single = await context.measure({
      name: `POST /entries single entry, ${CONNECTIONS} users`,
      url: `${context.apiUrl}/entries`,
      method: 'POST',
      connections: CONNECTIONS,
      requests: [
        {
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
    // The same, all 16 connections writing as one user: the user's writes take its write lock in turn.
    const oneUser = await context.measure({
      name: `POST /entries single entry, one user`,
      url: `${context.apiUrl}/entries`,
      method: 'POST',
      headers,
      body: JSON.stringify(entryBody(seed, 0, 'bench')),
      connections: CONNECTIONS,
    });
    const tps = await pgbenchSimpleUpdateTps(context.env.DATABASE_URL, CONNECTIONS, defaultSeconds());
    context.compare(
      `POST /entries single (${CONNECTIONS} conn, ${CONNECTIONS} users) vs pgbench -N (${CONNECTIONS} clients); target >= 0.25`,
      single.requestsPerSecond,
      'pgbench -N',
      tps,
      'tx/s',
    );
    context.compare(
      `POST /entries single (${CONNECTIONS} conn, one user) vs pgbench -N (${CONNECTIONS} clients)`,
      oneUser.requestsPerSecond,
      'pgbench -N',
      tps,
      'tx/s',
    );
    const batch = await context.measure({
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
