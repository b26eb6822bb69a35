import { PrivatePgBouncer, startPgBouncer } from '@pfs/testing';
import { Client } from 'pg';

/**
 * Imported FIRST by a `…-through-pgbouncer.test.ts` file (the services' test/integration/pooler folders), before
 * the suites it re-runs: its beforeAll (registered
 * before theirs) starts a private PgBouncer in transaction mode in front of the shared Postgres and points
 * DATABASE_URL at this run's database through it, DATABASE_DIRECT_URL at Postgres itself (migrations). Every
 * app the suites then build (startApiTestApp reads the environment in their beforeAll) queries through the
 * pooler. A small pool makes transactions of different clients share server connections.
 */

const direct = process.env.DATABASE_URL!;
const database = new URL(direct).pathname.slice(1);
let bouncer: PrivatePgBouncer | undefined;

beforeAll(async () => {
  bouncer = await startPgBouncer({ poolMode: 'transaction', poolSize: 4 });
  process.env.DATABASE_DIRECT_URL = direct;
  process.env.DATABASE_URL = bouncer.url(database);
});

afterAll(async () => {
  process.env.DATABASE_URL = direct;
  delete process.env.DATABASE_DIRECT_URL;
  await bouncer?.stop();
});

/** Transactions PgBouncer has pooled for this run's database so far (its admin console's SHOW STATS). */
export async function pooledTransactions(): Promise<number> {
  const admin = new Client({ connectionString: bouncer!.url('pgbouncer') });
  await admin.connect();
  try {
    const { rows } = await admin.query('SHOW STATS');
    return Number(rows.find((row) => row.database === database)?.total_xact_count ?? 0);
  } finally {
    await admin.end();
  }
}

/** Registers the check that the suites above really went through PgBouncer (call it after their imports). */
export function expectTrafficThroughPgBouncer(atLeast: number): void {
  describe('through PgBouncer', () => {
    it(`when the suites above have run, then PgBouncer pooled at least ${atLeast} of their transactions`, async () => {
      expect(process.env.DATABASE_URL).toContain(`:${bouncer!.port}/`);
      expect(await pooledTransactions()).toBeGreaterThanOrEqual(atLeast);
    });
  });
}
