import { isResourceId } from '@pfs/contracts';
import type { EntityManager } from 'typeorm';
import { type Actor, handleOf, transactionOf, type UserChange, type UserRead } from '../sync/user-change';
import { fromCustomRates, UserRepository, type User } from './user.repository';

/** The profile's superseded `modified` values, in resource_revisions (no snapshot: PUT /me never merges). */
const PROFILE_REVISION_KIND = 'me';

/** The writable profile fields of `PUT /me`. Absent optional fields are unset (the spec's PUT rule). */
export type ProfileUpdate = Pick<
  User,
  'firstName' | 'lastName' | 'currency' | 'startDay' | 'locale' | 'timezone' | 'country' | 'extra'
> &
  /** Kept as stored when absent. */
  Partial<Pick<User, 'recentCurrencies' | 'customRates'>>;

export type ProfileUpdateResult =
  { state: 'updated'; user: User } | { state: 'stale'; user: User } | { state: 'missing' };

/** The profile, locked for the caller's transaction, and whether the client's `modified` is its current one. */
export type LockedProfile = { user: User; fresh: boolean } | undefined;

/**
 * Called with the writer (the user, and the request's trace) after a write of their `users` row has committed:
 * the API injects its profile cache's invalidation (UserProfileCache in services/api, in dependencies.ts), which
 * drops the cached `GET /me`.
 */
export type UserRowChanged = (who: Actor) => Promise<void>;

/**
 * Every write to the `users` row of the API goes through `writeProfile` or `updateProfile`. Writes are
 * guarded by `modified`: the row changes only if its stored `modified` (to the millisecond, as
 * clients see it) is the one the client sent. Each write moves `modified_at` forward by at least 1 ms.
 *
 * This repository is the only place that invalidates the cached profile: each write calls `userRowChanged`
 * once it has committed (inside a caller's change, through `afterCommit`), never before, or a concurrent
 * reader could cache the old row again; callers never invalidate. docs/conventions.md §7.
 */
export class UserProfileRepository {
  constructor(private readonly userRowChanged: UserRowChanged) {}

  /** A guarded profile write in its own transaction (no currency change work). */
  async updateProfile(
    user: UserRead,
    expectedModified: Date,
    update: ProfileUpdate,
  ): Promise<ProfileUpdateResult> {
    const userId = user.userId;
    // Its own transaction, as before: the profile row is locked and written without a change sequence.
    const result = await handleOf(user).transaction(async (manager): Promise<ProfileUpdateResult> => {
      const locked = await this.lockRow(manager, userId, expectedModified);
      if (!locked) return { state: 'missing' };
      if (!locked.fresh) return { state: 'stale', user: locked.user };
      return { state: 'updated', user: await this.writeRow(manager, userId, update) };
    });
    if (result.state === 'updated') await this.userRowChanged(user);
    return result;
  }

  /**
   * Locks the user's row until the caller's transaction ends (so a currency change and the profile write
   * are one step) and tells whether `expectedModified` is the stored `modified`.
   */
  lockProfile(change: UserChange, expectedModified: Date): Promise<LockedProfile> {
    return this.lockRow(transactionOf(change), change.userId, expectedModified);
  }

  private async lockRow(
    manager: EntityManager,
    userId: string,
    expectedModified: Date,
  ): Promise<LockedProfile> {
    if (!isResourceId(userId)) return undefined;
    const rows: Array<{ fresh: boolean }> = await manager.query(
      `SELECT date_trunc('milliseconds', modified_at) = $2 AS fresh FROM users WHERE id = $1 FOR UPDATE`,
      [userId, expectedModified],
    );
    if (!rows[0]) return undefined;
    const user = await new UserRepository(manager).findById(userId);
    return user ? { user, fresh: Boolean(rows[0].fresh) } : undefined;
  }

  /** Whether `modified` is a value the profile carried before (see writeProfile). */
  async wasIssued(read: UserRead, modified: Date): Promise<boolean> {
    const rows: unknown[] = await handleOf(read).query(
      `SELECT 1 FROM resource_revisions WHERE kind = $1 AND object_id = $2 AND modified_at = $3 AND user_id = $2`,
      [PROFILE_REVISION_KIND, read.userId, modified],
    );
    return rows.length > 0;
  }

  /**
   * Writes the profile inside the caller's change (after `lockProfile`) and returns it as stored; the cached
   * profile is invalidated once that change has committed.
   */
  async writeProfile(change: UserChange, update: ProfileUpdate): Promise<User> {
    const user = await this.writeRow(transactionOf(change), change.userId, update);
    change.afterCommit(() => this.userRowChanged(change));
    return user;
  }

  private async writeRow(manager: EntityManager, userId: string, update: ProfileUpdate): Promise<User> {
    // The `modified` being replaced was issued: remember it, so a later write still carrying it is told
    // "stale" (409), while a value never issued is told "invalid" (400), as for every other resource.
    await manager.query(
      `INSERT INTO resource_revisions (kind, object_id, modified_at, user_id, snapshot)
       SELECT $2, id, date_trunc('milliseconds', modified_at), id, '{}'::jsonb FROM users WHERE id = $1
       ON CONFLICT DO NOTHING`,
      [userId, PROFILE_REVISION_KIND],
    );
    await manager.query(
      `UPDATE users SET first_name = $2, last_name = $3, currency = $4, start_day = $5, locale = $6, timezone = $7,
         country = $8, extra = $9,
         recent_currencies = coalesce($10::text[], recent_currencies),
         custom_rates = coalesce($11::jsonb, custom_rates),
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()),
                                date_trunc('milliseconds', modified_at) + interval '1 millisecond')
       WHERE id = $1`,
      [
        userId,
        update.firstName,
        update.lastName,
        update.currency,
        update.startDay,
        update.locale,
        update.timezone,
        update.country,
        update.extra === null ? null : JSON.stringify(update.extra),
        update.recentCurrencies ?? null,
        update.customRates ? JSON.stringify(fromCustomRates(update.customRates)) : null,
      ],
    );
    const user = await new UserRepository(manager).findById(userId);
    if (!user) throw new Error('the locked user vanished');
    return user;
  }
}
