import { createDataSource, ExportSheetRepository, ReadRouting, resourceEntities } from '@pfs/resource-store';
import { capturingLogger, PrivateReplicatedPostgres, startPrivateReplicatedPostgres } from '@pfs/testing';
import type { Express } from 'express';
import { Client } from 'pg';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { buildApiApp } from '../../../src/app';
import { loadApiConfig } from '../../../src/config';
import { ApiDependencies, createApiDependencies } from '../../../src/dependencies';
import { createCategory, createTestUser, TestUser } from '../../support/api-test-app';
import { postAccount, postEntry } from '../ledger/ledger-http';

/**
 * DATABASE_READ_URL against a real streaming replica (a private primary and its pg_basebackup -R copy): heavy
 * reads go to the replica once it has replayed the user's last write, wait for it (bounded), and fall back to
 * the primary. A "bypass" app without a replica writes without recording a position: the replica, paused,
 * lacks that write, which tells which server answered.
 */

interface App {
  app: Express;
  deps: ApiDependencies;
  lines: Array<Record<string, unknown>>;
}

let clusters: PrivateReplicatedPostgres;
let primary: Client;
let replica: Client;
const apps: App[] = [];

async function startApp(env: Record<string, string>): Promise<App> {
  const { logger, lines } = capturingLogger('api');
  const config = loadApiConfig({
    ...process.env,
    DATABASE_URL: clusters.primary.url('postgres'),
    DATABASE_DIRECT_URL: clusters.primary.url('postgres'),
    ...env,
  });
  const deps = await createApiDependencies(config, logger);
  const started = { app: buildApiApp(deps), deps, lines };
  apps.push(started);
  return started;
}

async function replayed(): Promise<void> {
  const { rows } = await primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const caught = await replica.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught', [
      rows[0].lsn,
    ]);
    if (caught.rows[0].caught) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the replica did not catch up');
}

const pause = () => replica.query('SELECT pg_wal_replay_pause()');
const resume = () => replica.query('SELECT pg_wal_replay_resume()');
const fallbacks = (app: App) =>
  app.lines.filter((line) => String(line.msg).startsWith('heavy read served by'));

let api: App;
let bypass: App;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

beforeAll(async () => {
  clusters = await startPrivateReplicatedPostgres();
  primary = new Client({ connectionString: clusters.primary.url('postgres') });
  replica = new Client({ connectionString: clusters.replica.url('postgres') });
  await Promise.all([primary.connect(), replica.connect()]);
  const replicaUrl = clusters.replica.url('postgres');
  api = await startApp({ DATABASE_READ_URL: replicaUrl, DATABASE_REPLICA_WAIT_MS: '200' });
  bypass = await startApp({});
}, 90_000);

afterAll(async () => {
  await resume().catch(() => undefined);
  for (const app of apps) await app.deps.close();
  await Promise.all([primary?.end(), replica?.end()]);
  await clusters?.destroy();
}, 30_000);

async function ledgerUser() {
  const user = await createTestUser(api.deps);
  const category = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
  const account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  const spend = (app: App, amount: number) =>
    postEntry(app.app, user, { amount, currency: { code: 'EUR' }, date: '2025-05-05', account, category });
  return { user, spend };
}

const expenses = async (app: App, user: TestUser): Promise<number> => {
  const answer = await request(app.app)
    .get('/entries/sums?from=2025-05-01&to=2025-05-31&currency=EUR&range=month')
    .set('Authorization', user.auth)
    .expect(200);
  return answer.body[0]?.expenses.sum ?? 0;
};

const timelineCount = async (app: App, user: TestUser): Promise<number> => {
  const answer = await request(app.app)
    .get('/entries/timeline?from=2025-05-01&to=2025-05-31&currency=EUR')
    .set('Authorization', user.auth)
    .expect(200);
  return answer.body.reduce(
    (count: number, group: { entries?: unknown[] }) => count + (group.entries?.length ?? 0),
    0,
  );
};

describe('heavy reads on a streaming replica (DATABASE_READ_URL)', () => {
  it("when the replica has replayed the user's last write, then it serves sums and timeline (a write it lacks stays unseen)", async () => {
    const { user, spend } = await ledgerUser();
    await spend(api, -10);
    expect(await expenses(api, user)).toBe(10);
    await replayed();
    await pause();
    try {
      // Written without a recorded position: only the primary has it while replay is paused.
      await spend(bypass, -5);
      expect(await expenses(bypass, user)).toBe(15);
      expect(await expenses(api, user)).toBe(10);
      expect(await timelineCount(api, user)).toBe(1);
      expect(await timelineCount(bypass, user)).toBe(2);
      expect(fallbacks(api)).toEqual([]);
    } finally {
      await resume();
    }
  });

  it("when the replica is paused behind the user's write, then the read waits, falls back to the primary and sees the write", async () => {
    const { user, spend } = await ledgerUser();
    await spend(api, -10);
    await replayed();
    await pause();
    try {
      await spend(api, -2);
      expect(await expenses(api, user)).toBe(12);
      expect(await timelineCount(api, user)).toBe(2);
      expect(fallbacks(api).length).toBeGreaterThanOrEqual(2);
      expect(fallbacks(api)[0]).toMatchObject({ reason: 'behind', level: 30 });
      // Written deep in the store (the read's routing), the line names the trace of the request that read.
      await request(api.app)
        .get('/entries/sums?from=2025-05-01&to=2025-05-31&currency=EUR&range=month')
        .set('Authorization', user.auth)
        .set('traceparent', `00-${TRACE_ID}-00f067aa0ba902b7-01`)
        .expect(200);
      expect(fallbacks(api).at(-1)).toMatchObject({ reason: 'behind', traceId: TRACE_ID });
    } finally {
      await resume();
    }
    await replayed();
    const before = fallbacks(api).length;
    expect(await expenses(api, user)).toBe(12);
    expect(fallbacks(api).length).toBe(before);
  });

  it('when the replay resumes within the wait, then the replica answers, with the write', async () => {
    const patient = await startApp({
      DATABASE_READ_URL: clusters.replica.url('postgres'),
      DATABASE_REPLICA_WAIT_MS: '10000',
    });
    const user = await createTestUser(patient.deps);
    const account = await postAccount(patient.app, user, { name: 'Cash', currency: { code: 'EUR' } });
    const category = await createCategory(patient.app, user, { name: 'Food', type: 'expense' });
    await replayed();
    await pause();
    try {
      await postEntry(patient.app, user, {
        amount: -3,
        currency: { code: 'EUR' },
        date: '2025-05-07',
        account,
        category,
      });
      const reading = expenses(patient, user);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await resume();
      expect(await reading).toBe(3);
      expect(fallbacks(patient)).toEqual([]);
    } finally {
      await resume();
    }
  });
});

describe('export rows on the replica, after the position stored on the export', () => {
  let replicaSource: DataSource;
  beforeAll(async () => {
    replicaSource = createDataSource({ url: clusters.replica.url('postgres'), entities: resourceEntities });
    await replicaSource.initialize();
  });
  afterAll(() => replicaSource.destroy());

  const amounts = async (sheets: ExportSheetRepository, userId: string, walPosition: string | null) => {
    const rows: string[] = [];
    for await (const row of sheets.entries('expenses', {
      userId,
      from: null,
      to: null,
      filters: null,
      walPosition,
    }))
      rows.push(String(row.amount));
    return rows.sort();
  };

  it('when the export was requested after a write the paused replica lacks, then its rows come from the primary; an earlier export reads the replica', async () => {
    const { user, spend } = await ledgerUser();
    const exportOf = () =>
      api.deps.store.change({ userId: user.userId }, (change) =>
        api.deps.repos.exports.create(change, {
          type: 'export',
          resources: ['expenses'],
          formats: ['csv'],
          filters: null,
          from: null,
          to: null,
        }),
      );
    await spend(api, -10);
    const early = await exportOf();
    expect(early.walPosition).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    await replayed();
    await pause();
    try {
      await spend(bypass, -4);
      const late = await exportOf();
      const fellBack: string[] = [];
      const routing = new ReadRouting(api.deps.dataSource, replicaSource, {
        waitMs: 200,
        onFallback: (reason) => void fellBack.push(reason),
      });
      const sheets = new ExportSheetRepository(api.deps.dataSource, routing);
      expect(await amounts(sheets, user.userId, early.walPosition)).toEqual(['-10']);
      expect(fellBack).toEqual([]);
      expect(await amounts(sheets, user.userId, late.walPosition)).toEqual(['-10', '-4']);
      expect(fellBack).toEqual(['behind']);
    } finally {
      await resume();
    }
  });
});
