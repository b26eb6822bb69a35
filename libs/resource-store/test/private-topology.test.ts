import {
  PrivatePgBouncer,
  PrivateReplicatedPostgres,
  startPgBouncer,
  startPrivateReplicatedPostgres,
} from '@pfs/testing';
import { Client } from 'pg';

/** The test helpers other suites build on: a transaction-mode PgBouncer, a primary and its streaming replica. */

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const runDatabase = () => new URL(process.env.DATABASE_URL!).pathname.slice(1);

describe('startPgBouncer', () => {
  let bouncer: PrivatePgBouncer;
  beforeAll(async () => {
    bouncer = await startPgBouncer({ poolSize: 1 });
  });
  afterAll(() => bouncer.stop());

  it('when two clients query through it, then both are served by one pooled server connection, in transaction mode', async () => {
    const url = bouncer.url(runDatabase());
    const a = new Client({ connectionString: url });
    const b = new Client({ connectionString: url });
    await Promise.all([a.connect(), b.connect()]);
    try {
      const [{ rows: first }, { rows: second }] = await Promise.all([
        a.query('SELECT pg_backend_pid() AS pid, current_database() AS db'),
        b.query('SELECT pg_backend_pid() AS pid'),
      ]);
      // Two client connections open at once, one server backend (pool size 1): transactions share it.
      expect(first[0].pid).toBe(second[0].pid);
      expect(first[0].db).toBe(runDatabase());
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
    const modes = await withClient(bouncer.url('pgbouncer'), (admin) =>
      admin.query({ text: 'SHOW CONFIG', rowMode: 'array' }),
    );
    expect(modes.rows.find((row) => row[0] === 'pool_mode')?.[1]).toBe('transaction');
  });

  it('when a client sends statement_timeout at start (as pg does from the pool options), then it still connects', async () => {
    const client = new Client({ connectionString: bouncer.url(runDatabase()), statement_timeout: 1_000 });
    await client.connect();
    try {
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });
});

describe('startPrivateReplicatedPostgres', () => {
  let clusters: PrivateReplicatedPostgres;
  beforeAll(async () => {
    clusters = await startPrivateReplicatedPostgres();
  }, 60_000);
  afterAll(() => clusters.destroy());

  it('when a row is written on the primary, then the replica replays it, and a paused replay holds it back', async () => {
    const primary = clusters.primary.url('postgres');
    const replica = clusters.replica.url('postgres');
    expect(
      await withClient(replica, async (c) => (await c.query('SELECT pg_is_in_recovery() AS r')).rows[0].r),
    ).toBe(true);
    await withClient(primary, (c) => c.query('CREATE TABLE notes (id int PRIMARY KEY)'));
    const replayed = async (id: number) => {
      const lsn = await withClient(primary, async (c) => {
        await c.query('INSERT INTO notes VALUES ($1)', [id]);
        return (await c.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn as string;
      });
      return withClient(replica, async (c) => {
        for (let attempt = 0; attempt < 200; attempt += 1) {
          const { rows } = await c.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught', [lsn]);
          if (rows[0].caught) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return (await c.query('SELECT count(*)::int AS n FROM notes WHERE id = $1', [id])).rows[0]
          .n as number;
      });
    };
    expect(await replayed(1)).toBe(1);

    await withClient(replica, (c) => c.query('SELECT pg_wal_replay_pause()'));
    try {
      await withClient(primary, (c) => c.query('INSERT INTO notes VALUES (2)'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const seen = await withClient(
        replica,
        async (c) => (await c.query('SELECT count(*)::int AS n FROM notes')).rows[0].n,
      );
      expect(seen).toBe(1);
    } finally {
      await withClient(replica, (c) => c.query('SELECT pg_wal_replay_resume()'));
    }
    expect(await replayed(3)).toBe(1);
  }, 30_000);
});
