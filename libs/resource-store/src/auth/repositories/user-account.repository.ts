import { isResourceId } from '@pfs/contracts';
import type { DataSource } from 'typeorm';
import { NewUser, User, UserRepository } from '../../repositories/user.repository';
import { CredentialRepository, NewCredential } from './credential.repository';

/** A user as the operator lists them: the profile's names and whether two-factor is on; never a secret. */
export interface UserAccountSummary {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  joined: Date;
  otp: boolean;
}

/**
 * A user together with their sign-in state: the users row (the resource schema) and the auth tables that
 * hang off it. Creating and deleting an account touches both, so it happens here, in one transaction.
 */
export class UserAccountRepository {
  constructor(private readonly source: DataSource) {}

  /** The users row and its credential, both or neither. */
  async create(user: NewUser, credential: Omit<NewCredential, 'userId'>): Promise<User> {
    return this.source.transaction(async (manager) => {
      const created = await new UserRepository(manager).create(user);
      await new CredentialRepository(manager).create({ ...credential, userId: created.id });
      return created;
    });
  }

  /** Users by id; `emailContains` matches case-insensitively. */
  async list(filter: { emailContains?: string; limit: number }): Promise<UserAccountSummary[]> {
    const rows: Array<{
      id: string;
      email: string;
      first_name: string | null;
      last_name: string | null;
      joined: Date;
      otp: boolean;
    }> = await this.source.query(
      `SELECT u.id::text AS id, u.email, u.first_name, u.last_name, u.created_at AS joined,
              (c.otp_enabled_at IS NOT NULL) AS otp
         FROM users u LEFT JOIN auth_credentials c ON c.user_id = u.id
        WHERE $1::text IS NULL OR strpos(lower(u.email), lower($1)) > 0
        ORDER BY u.id LIMIT $2`,
      [filter.emailContains ?? null, filter.limit],
    );
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      joined: row.joined,
      otp: row.otp,
    }));
  }

  /** A user by id (digits) or by email (case-insensitive, as sign-in matches it). */
  async findByIdOrEmail(idOrEmail: string): Promise<{ id: string; email: string } | undefined> {
    const byId = isResourceId(idOrEmail);
    const rows: Array<{ id: string; email: string }> = await this.source.query(
      `SELECT id::text, email FROM users WHERE ${byId ? 'id = $1' : 'lower(email) = lower($1)'}`,
      [idOrEmail],
    );
    return rows[0];
  }

  /**
   * Deletes the user's row, which cascades to every table with a `user_id`, and the applications the user
   * registered (`oauth_clients.owner_user_id` is SET NULL, not a cascade), in one transaction.
   */
  async deleteWithOwnedClients(userId: string): Promise<void> {
    await this.source.transaction(async (manager) => {
      await manager.query('DELETE FROM oauth_clients WHERE owner_user_id = $1', [userId]);
      await manager.query('DELETE FROM users WHERE id = $1', [userId]);
    });
  }
}
