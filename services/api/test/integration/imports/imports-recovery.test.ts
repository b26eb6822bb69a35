import { openImportJobQueue } from '@pfs/jobs';
import { AdvisoryLocks } from '@pfs/resource-store';
import type { Worker } from 'bullmq';
import { Readable } from 'node:stream';
import { repairUnfinishedImports } from '../../../../worker/src/use-cases/repair-unfinished-imports.use-case';
import { ApiTestApp, createTestUser, isolatedRedisPrefix, startApiTestApp } from '../../support/api-test-app';
import {
  accountOf,
  createAccount,
  entriesOf,
  postImport,
  startImportWorkerFor,
  waitForImport,
  workerImportDependencies,
} from './import-harness';

const SCOPES = 'user:rw entries:rw accounts:rw categories:rw tags:rw';
const ROWS = 1_700;

/** A statement of ROWS distinct rows whose amounts add up to an exact, known total. */
function statement(): { text: string; total: string } {
  const lines = ['Date,Amount,Description'];
  let cents = 0;
  for (let i = 0; i < ROWS; i += 1) {
    const amount = -((i % 997) + 1) - (i % 100) / 100;
    cents += Math.round(amount * 100);
    lines.push(`2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')},${amount.toFixed(2)},row ${i}`);
  }
  return { text: lines.join('\n'), total: (cents / 100).toFixed(2) };
}

let api: ApiTestApp;
const workers: Worker[] = [];
beforeAll(async () => {
  api = await startApiTestApp({ REDIS_KEY_PREFIX: isolatedRedisPrefix('imports-recovery') });
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close()));
  await api.close();
});

describe('an import that stops part-way', () => {
  it('when its worker fails after two committed batches, then the retry resumes there: every row once, exact balance', async () => {
    let importingChanges = 0;
    workers.push(
      await startImportWorkerFor(api, (deps) => {
        const store = deps.repos.store;
        const change: typeof store.change = async (who, work) => {
          // The third batch's change (after two have committed) dies as a crashed process would.
          if (new Error().stack!.includes('importRowsBatches') && ++importingChanges === 3) {
            throw new Error('worker stopped');
          }
          return store.change(who, work);
        };
        return { ...deps, repos: { ...deps.repos, store: Object.assign(Object.create(store), { change }) } };
      }),
    );
    const user = await createTestUser(api.deps, SCOPES);
    const account = await createAccount(api, user, { initial_balance: 0 });
    const { text, total } = statement();
    const created = await postImport(api, user, text, 'big.csv', { account }).expect(201);
    const done = await waitForImport(api, user, created.body.id);
    expect(done).toMatchObject({
      status: 'imported',
      rows_total: ROWS,
      rows_done: ROWS,
      entries_created: ROWS,
    });
    // Rows before the resume point were skipped, not taken for duplicates of what the first run wrote.
    expect(done.duplicates).toBe(0);
    expect(importingChanges).toBeGreaterThan(3);
    const [{ attempts }] = await api.deps.dataSource.query(`SELECT attempts FROM imports WHERE id = $1`, [
      done.id,
    ]);
    expect(attempts).toBe(2);
    expect(await entriesOf(api, user, account)).toHaveLength(500);
    const [{ count }] = await api.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM entries WHERE account_id = $1 AND NOT deleted`,
      [account],
    );
    expect(count).toBe(ROWS);
    expect(Number((await accountOf(api, user, account)).balance).toFixed(2)).toBe(total);
  });

  it('when its job was lost, then the sweep queues it again and it completes', async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.close()));
    workers.push(await startImportWorkerFor(api));
    const user = await createTestUser(api.deps, SCOPES);
    const account = await createAccount(api, user);
    // Recorded and stored, but never queued: what POST /imports leaves when Redis refuses the job (503).
    const key = `imports/${user.userId}/lost/statement`;
    await api.deps.storage.write(key, Readable.from([Buffer.from('Date,Amount\n2026-04-01,-2.50\n')]));
    const record = await api.deps.store.change({ userId: user.userId }, (change) =>
      api.deps.repos.imports.create(change, {
        accountId: account,
        format: null,
        options: {},
        dryRun: false,
        filename: 'lost.csv',
        filesize: 26,
        storageKey: key,
      }),
    );
    const jobs = openImportJobQueue(api.deps.config);
    try {
      const deps = { ...workerImportDependencies(api), locks: new AdvisoryLocks(api.deps.dataSource) };
      // Fresh: left alone (its job may still be on its way).
      await repairUnfinishedImports(deps, jobs);
      expect(await jobs.latestRun(record.id)).toBeUndefined();
      // Untouched past the grace period (15 minutes): queued again under the sweeper's run.
      await api.deps.dataSource.query(
        `UPDATE imports SET modified_at = now() - interval '20 minutes' WHERE id = $1`,
        [record.id],
      );
      const repaired = await repairUnfinishedImports(deps, jobs);
      expect(repaired!.requeued).toBeGreaterThanOrEqual(1);
      expect(await jobs.latestRun(record.id)).toMatchObject({ run: 1 });
    } finally {
      await jobs.close();
    }
    const done = await waitForImport(api, user, record.id);
    expect(done).toMatchObject({ status: 'imported', entries_created: 1 });
    expect(String((await accountOf(api, user, account)).balance)).toBe('97.5');
  });
});
