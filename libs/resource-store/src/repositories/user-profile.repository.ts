import type { DataSource } from 'typeorm';
import { UserRepository, type User } from './user.repository';

/** The writable profile fields of `PUT /me`. Absent optional fields are unset (the spec's PUT rule). */
export interface ProfileUpdate {
  firstName: string | null;
  lastName: string | null;
  currency: string;
  startDay: number;
  locale: string | null;
  timezone: string | null;
  country: string | null;
  extra: Record<string, unknown> | null;
}

export type ProfileUpdateResult =
  { state: 'updated'; user: User } | { state: 'stale'; user: User } | { state: 'missing' };

/**
 * Called with the user's id after a write of their `users` row has committed: the API passes
 * `invalidateUserProfile` (UserProfileCache in @pfs/resource-api), which drops the cached `GET /me`.
 */
export type UserRowChanged = (userId: string) => Promise<void>;

/**
 * Profile writes guarded by `modified`: the row changes only if its stored `modified` (to the millisecond, as
 * clients see it) is the one the client sent. Each write moves `modified_at` forward by at least 1 ms.
 *
 * Rule for every writer of the `users` row (here or elsewhere, e.g. a main-currency change): once the write
 * has committed, call `userRowChanged(userId)`, or `GET /me` keeps serving the cached old profile (up to its
 * 10-minute TTL). Inside a transaction, call it after the commit, not before. docs/conventions.md.
 */
export class UserProfileRepository {
  private readonly users: UserRepository;

  constructor(
    private readonly source: DataSource,
    private readonly userRowChanged: UserRowChanged,
  ) {
    this.users = new UserRepository(source);
  }

  async updateProfile(
    userId: string,
    expectedModified: Date,
    update: ProfileUpdate,
  ): Promise<ProfileUpdateResult> {
    const rows = await this.source.query(
      `UPDATE users SET first_name = $3, last_name = $4, currency = $5, start_day = $6, locale = $7, timezone = $8,
         country = $9, extra = $10,
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()),
                                date_trunc('milliseconds', modified_at) + interval '1 millisecond')
       WHERE id = $1 AND date_trunc('milliseconds', modified_at) = $2 RETURNING id`,
      [
        userId,
        expectedModified,
        update.firstName,
        update.lastName,
        update.currency,
        update.startDay,
        update.locale,
        update.timezone,
        update.country,
        update.extra === null ? null : JSON.stringify(update.extra),
      ],
    );
    const changed = Array.isArray(rows[0]) ? rows[0].length : rows.length;
    if (changed) await this.userRowChanged(userId);
    const user = await this.users.findById(userId);
    if (!user) return { state: 'missing' };
    return changed ? { state: 'updated', user } : { state: 'stale', user };
  }
}
