import type { BenchSuite } from '../bench-suite';
import { defaultSeconds } from '../measure';
import { pgbenchSimpleUpdateTps } from '../pgbench';
import { entryBody } from './entries.bench';
import { seedLedger } from './entries-seed';

const CONNECTIONS = 16;
const BATCH = 500;

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
    const single = await context.measure({
      name: `POST /entries single entry`,
      url: `${context.apiUrl}/entries`,
      method: 'POST',
      headers,
      body: JSON.stringify(entryBody(seed, 0, 'bench')),
      connections: CONNECTIONS,
    });
    const tps = await pgbenchSimpleUpdateTps(context.env.DATABASE_URL, CONNECTIONS, defaultSeconds());
    context.compare(
      `POST /entries single (${CONNECTIONS} conn) vs pgbench -N (${CONNECTIONS} clients); target >= 0.25`,
      single.requestsPerSecond,
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
