import { Decimal } from '@pfs/money';
import { accountsTable, entriesTable, plainEntriesInsert } from '@pfs/resource-store';
import { createPlainEntries } from '../../../src/modules/entries/create-plain-entries.use-case';
import type { EntryBody } from '../../../src/modules/entries/entry-body.schema';
import { type EntryDraft, entryDraftOf } from '../../../src/modules/entries/entry-draft';
import { KnownReferences } from '../../../src/modules/entries/known-references';
import {
  createLedgerUser,
  insertCategory,
  openLedger,
  type LedgerFixture,
} from '../../support/ledger-fixture';
import { createAccount } from '../../support/ledger-calls';

let deps: LedgerFixture;
beforeAll(async () => {
  deps = await openLedger();
});
afterAll(() => deps.close());

const draft = (body: Record<string, unknown>): EntryDraft =>
  entryDraftOf({ currency: { code: 'EUR' }, date: '2025-05-09', ...body } as unknown as EntryBody);

async function watermark(userId: string): Promise<string> {
  return deps.store.watermark(userId);
}

async function ledgerOf(userId: string, accountId: string) {
  const account = (await accountsTable.findById(deps.store.read({ userId }), accountId, {
    includeDeleted: true,
  }))!;
  const [{ count }] = await deps.dataSource.query(
    `SELECT count(*)::int AS count FROM entries WHERE user_id = $1`,
    [userId],
  );
  return { balance: new Decimal(account.initialBalance).plus(account.entriesTotal).toFixed(), count };
}

describe('plain entries written as one one-trip change (POST /entries without an Idempotency-Key)', () => {
  it('writes the entries, their revisions (as read back) and the balance under one new change sequence', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, { name: 'Cash', currency: { code: 'EUR' } });
    const category = await insertCategory(deps, userId);
    const before = await watermark(userId);
    const actor = { userId, app: 'app-one' };
    const created = await createPlainEntries(
      deps,
      actor,
      [
        draft({ amount: -1.5, account: account.id, category, extra: { note: 'a' } }),
        // Another currency: the ECB cross rate of the day, stored to 12 decimals.
        draft({ amount: 10, currency: { code: 'USD' }, account: account.id, desc: 'second' }),
      ],
      { fieldsByIndex: true },
    );
    expect(created?.entries.map((entry) => entry.description)).toEqual([null, 'second']);
    const [first, second] = created!.entries;
    expect(first.extra).toEqual({ note: 'a' });
    expect(first.changeSeq).toBe(second.changeSeq);
    expect(BigInt(first.changeSeq)).toBeGreaterThan(BigInt(before));
    expect(await watermark(userId)).toBe(first.changeSeq);
    expect(created!.settings.main).toBe('EUR');
    const expected = new Decimal(first.accountAmount).plus(second.accountAmount).toFixed();
    expect(await ledgerOf(userId, account.id)).toEqual({ balance: expected, count: 2 });
    for (const entry of created!.entries) {
      const stored = await entriesTable.findRevision(deps.store.read(actor), entry.id, entry.modifiedAt);
      const readBack = (await entriesTable.findById(deps.store.read(actor), entry.id))!;
      expect(stored).toEqual(JSON.parse(JSON.stringify(entriesTable.options.toSnapshot(readBack))));
    }
  });

  it('when a reference changed after the checks, then it writes nothing and answers undefined', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, { name: 'Cash', currency: { code: 'EUR' } });
    const snapshot = {
      amount: '-2',
      currency: { code: 'EUR', rate: '1', fixed: false },
      date: '2025-05-09',
      account: account.id,
      completed: true,
      account_amount: '-2',
    };
    // The account's currency is no longer the one the amount was converted to.
    const answer = await deps.store.changeInOneTrip(
      { userId },
      plainEntriesInsert({ userId }, [{ snapshot, accountCurrency: 'USD' }]),
    );
    expect(answer).toBeUndefined();
    expect(await ledgerOf(userId, account.id)).toEqual({ balance: '0', count: 0 });
    // An account deleted meanwhile.
    await deps.dataSource.query(`UPDATE accounts SET deleted = true WHERE id = $1`, [account.id]);
    const deleted = await deps.store.changeInOneTrip(
      { userId },
      plainEntriesInsert({ userId }, [{ snapshot, accountCurrency: 'EUR' }]),
    );
    expect(deleted).toBeUndefined();
    expect(await ledgerOf(userId, account.id)).toEqual({ balance: '0', count: 0 });
  });

  it('with known references, then a later write does not read them again; when one went stale, then nothing is written, they are forgotten and the next write names the field', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, { name: 'Cash', currency: { code: 'EUR' } });
    const category = await insertCategory(deps, userId);
    const known = new KnownReferences();
    const write = (amount: number) =>
      createPlainEntries(deps, { userId }, [draft({ amount, account: account.id, category })], {
        fieldsByIndex: false,
        known,
      });
    expect((await write(-1))?.entries).toHaveLength(1);
    expect(known.of(userId).accounts.get(account.id)).toEqual({ id: account.id, currency: 'EUR' });
    expect([...known.of(userId).categories]).toEqual([category]);
    // Deleted behind the process's back: the checks before the change take it as live (no read), the
    // statement's own check under the lock does not.
    await deps.dataSource.query(`UPDATE categories SET deleted = true WHERE id = $1`, [category]);
    expect(await write(-2)).toBeUndefined();
    expect(known.of(userId).categories.size).toBe(0);
    await expect(write(-3)).rejects.toMatchObject({
      fields: [{ field: 'category', error: 'must be one of your categories' }],
    });
    expect(await ledgerOf(userId, account.id)).toEqual({ balance: '-1', count: 1 });
    // An account whose currency changed: the amount converted to the known one is not written.
    await createPlainEntries(deps, { userId }, [draft({ amount: -4, account: account.id })], {
      fieldsByIndex: false,
      known,
    });
    await deps.dataSource.query(`UPDATE accounts SET currency = 'USD' WHERE id = $1`, [account.id]);
    expect(
      await createPlainEntries(deps, { userId }, [draft({ amount: -5, account: account.id })], {
        fieldsByIndex: false,
        known,
      }),
    ).toBeUndefined();
    expect(known.of(userId).accounts.size).toBe(0);
    expect(await ledgerOf(userId, account.id)).toEqual({ balance: '-5', count: 2 });
  });

  it('known references are kept for at most so many users (least recently written out) and ids per kind', () => {
    const known = new KnownReferences(2);
    known.of('1').rememberAccounts([{ id: '10', currency: 'EUR' }]);
    known.of('2').rememberAccounts([{ id: '20', currency: 'EUR' }]);
    known.of('1');
    known.of('3');
    expect(known.of('1').accounts.has('10')).toBe(true);
    expect(known.of('2').accounts.size).toBe(0);
    const references = known.of('1');
    references.remember(
      references.tags,
      Array.from({ length: 1_000 }, (_, n) => String(n)),
    );
    expect(references.tags.size).toBe(1_000);
    references.remember(references.tags, ['1000']);
    expect([...references.tags]).toEqual(['1000']);
  });

  it('when the statement fails, then the whole change rolls back (no claimed sequence) and the pool stays usable', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, { name: 'Cash', currency: { code: 'EUR' } });
    const before = await watermark(userId);
    const tooLarge = '1' + '0'.repeat(30);
    const snapshot = {
      amount: tooLarge,
      currency: { code: 'EUR', rate: '1', fixed: false },
      date: '2025-05-09',
      account: account.id,
      completed: true,
      account_amount: tooLarge,
    };
    await expect(
      deps.store.changeInOneTrip(
        { userId },
        plainEntriesInsert({ userId }, [{ snapshot, accountCurrency: 'EUR' }]),
      ),
    ).rejects.toThrow(/numeric field overflow/);
    expect(await watermark(userId)).toBe(before);
    expect(await ledgerOf(userId, account.id)).toEqual({ balance: '0', count: 0 });
    // Every pooled connection still answers outside any transaction.
    const states = await Promise.all(
      Array.from({ length: 12 }, () =>
        deps.dataSource.query(`SELECT now() = statement_timestamp() AS fresh`),
      ),
    );
    expect(states.every(([row]) => row.fresh === true)).toBe(true);
  });

  it('when a connection no longer holds the prepared statement (DEALLOCATE ALL, another server connection behind PgBouncer), then the change prepares it again', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, { name: 'Cash', currency: { code: 'EUR' } });
    const write = (amount: number) =>
      createPlainEntries(deps, { userId }, [draft({ amount, account: account.id })], {
        fieldsByIndex: false,
      });
    await write(-1);
    // Every pooled connection forgets its prepared statements (held at once, so each one is reached).
    const runners = Array.from({ length: 10 }, () => deps.dataSource.createQueryRunner());
    await Promise.all(runners.map((runner) => runner.query('DEALLOCATE ALL')));
    await Promise.all(runners.map((runner) => runner.release()));
    const again = await write(-2);
    expect(again?.entries.map((entry) => entry.amount)).toEqual(['-2']);
    expect(await ledgerOf(userId, account.id)).toEqual({ balance: '-3', count: 2 });
    const [{ prepared }] = await deps.dataSource.query(
      `SELECT count(*)::int AS prepared FROM pg_prepared_statements WHERE name LIKE 'pfs_plain_entries%'`,
    );
    expect(prepared).toBeLessThanOrEqual(1);
  });
});
