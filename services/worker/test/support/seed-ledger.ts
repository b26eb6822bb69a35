import { claimChangeSeq, UserRepository } from '@pfs/resource-store';
import { uniqueEmail } from '@pfs/testing';
import type { DataSource } from 'typeorm';

/** Seeds ledger rows straight into the tables (the export reads them; the ledger's own rules are not under test here). */
export class LedgerSeed {
  constructor(
    private readonly source: DataSource,
    readonly userId: string,
  ) {}

  static async forNewUser(source: DataSource): Promise<LedgerSeed> {
    const user = await new UserRepository(source).create({ email: uniqueEmail('export') });
    return new LedgerSeed(source, user.id);
  }

  private async insert(table: string, values: Record<string, unknown>): Promise<string> {
    return this.source.transaction(async (manager) => {
      const changeSeq = await claimChangeSeq(manager, this.userId);
      const row = { user_id: this.userId, change_seq: changeSeq, modified_at: new Date(), ...values };
      const names = Object.keys(row);
      const rows: Array<{ id: string }> = await manager.query(
        `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id::text AS id`,
        Object.values(row),
      );
      return rows[0].id;
    });
  }

  account(name: string, currency = 'EUR', initialBalance = '0'): Promise<string> {
    return this.insert('accounts', { name, currency, initial_balance: initialBalance });
  }

  /** An uploaded image row; the caller writes its files under `images/<user>/<prefix>/`. */
  image(input: {
    type: 'image' | 'pdf';
    filename: string | null;
    prefix: string;
    deleted?: boolean;
  }): Promise<string> {
    return this.insert('images', {
      type: input.type,
      status: input.deleted ? 'deleting' : 'uploaded',
      filename: input.filename,
      content_type: input.type === 'pdf' ? 'application/pdf' : 'image/jpeg',
      storage_prefix: `images/${this.userId}/${input.prefix}`,
      deleted: input.deleted ?? false,
    });
  }

  category(name: string, type: 'expense' | 'income' = 'expense'): Promise<string> {
    return this.insert('categories', { name, type });
  }

  tag(name: string, type: 'expense' | 'income' = 'expense'): Promise<string> {
    return this.insert('tags', { name, type });
  }

  async entry(input: {
    account: string;
    amount: string;
    date: string;
    category?: string;
    tags?: string[];
    description?: string;
    location?: string;
    currency?: string;
    /** For an entry in another currency than its account's: the rate and the amount in the account. */
    rate?: string;
    accountAmount?: string;
    transactionOf?: string;
    images?: string[];
  }): Promise<string> {
    const accountAmount = input.accountAmount ?? input.amount;
    const id = await this.insert('entries', {
      account_id: input.account,
      category_id: input.category ?? null,
      amount: input.amount,
      currency: input.currency ?? 'EUR',
      rate: input.rate ?? '1',
      account_amount: accountAmount,
      date: input.date,
      description: input.description ?? null,
      tag_ids: input.tags ?? [],
      location: input.location ? { id: input.location, latitude: 46.05, longitude: 14.5 } : null,
      transaction_id: input.transactionOf ?? null,
      image_ids: input.images ?? [],
    });
    await this.source.query(`UPDATE accounts SET entries_total = entries_total + $1 WHERE id = $2`, [
      accountAmount,
      input.account,
    ]);
    return id;
  }
}
