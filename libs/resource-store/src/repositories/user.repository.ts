import { isResourceId } from '@pfs/contracts';
import type { CustomRate } from '@pfs/money';
import { DataSource, EntityManager } from 'typeorm';
import { UserEntity } from '../entities/user.entity';

/** A user's profile as plain data; no TypeORM object leaves the repository. */
export interface User {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  currency: string;
  startDay: number;
  locale: string | null;
  timezone: string | null;
  country: string | null;
  extra: Record<string, unknown> | null;
  /** Previous main currencies, most recent first (see the currency-settings migration). */
  recentCurrencies: string[];
  /** The user's custom exchange rates; they replace the ECB history for their pair. */
  customRates: CustomRate[];
  createdAt: Date;
  modifiedAt: Date;
}

export interface NewUser {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  currency?: string;
}

/** Stored `custom_rates` items are `{code, reference_currency, rate, fixed}` (the API's names). */
export function toCustomRates(stored: unknown): CustomRate[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((item: Record<string, unknown>) => ({
    code: String(item.code),
    referenceCurrency: String(item.reference_currency),
    rate: String(item.rate),
    fixed: item.fixed === true,
  }));
}

export function fromCustomRates(rates: readonly CustomRate[]): Array<Record<string, unknown>> {
  return rates.map((rate) => ({
    code: rate.code,
    reference_currency: rate.referenceCurrency,
    rate: rate.rate,
    fixed: rate.fixed,
  }));
}

export class UserRepository {
  constructor(private readonly source: DataSource | EntityManager) {}

  /** On the hot path of every `GET /me`: plain SQL, because TypeORM's find costs ~3x the query itself. */
  async findById(id: string): Promise<User | undefined> {
    if (!isResourceId(id)) return undefined;
    const rows: Array<Record<string, unknown>> = await this.source.query(
      `SELECT id::text AS id, email, first_name, last_name, currency, start_day, locale, timezone, country, extra,
              recent_currencies, custom_rates, created_at, modified_at
       FROM users WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: String(row.id),
      email: String(row.email),
      firstName: (row.first_name as string | null) ?? null,
      lastName: (row.last_name as string | null) ?? null,
      currency: String(row.currency),
      startDay: Number(row.start_day),
      locale: (row.locale as string | null) ?? null,
      timezone: (row.timezone as string | null) ?? null,
      country: (row.country as string | null) ?? null,
      extra: (row.extra as Record<string, unknown> | null) ?? null,
      recentCurrencies: ((row.recent_currencies as string[] | null) ?? []).map(String),
      customRates: toCustomRates(row.custom_rates),
      createdAt: row.created_at as Date,
      modifiedAt: row.modified_at as Date,
    };
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const entity = await this.source
      .getRepository(UserEntity)
      .createQueryBuilder('user')
      .where('lower(user.email) = lower(:email)', { email })
      .getOne();
    return entity ? this.findById(String(entity.id)) : undefined;
  }

  async create(input: NewUser): Promise<User> {
    const repository = this.source.getRepository(UserEntity);
    const result = await repository.insert({
      email: input.email,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      currency: input.currency ?? 'EUR',
    });
    const created = await this.findById(String(result.identifiers[0].id));
    if (!created) throw new Error('the new user was not found');
    return created;
  }
}
