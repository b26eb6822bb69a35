import { DataSource, IsNull } from 'typeorm';
import { OAuthGrantEntity } from '../entities';

export interface Grant {
  id: string;
  userId: string;
  clientId: string;
  scope: string;
  revokedAt: Date | null;
}

/** An application the user has let in, for the "connected apps" list. */
export interface ConnectedApp {
  clientId: string;
  clientName: string;
  scope: string;
  firstGrantedAt: Date;
}

export class GrantRepository {
  constructor(private readonly source: DataSource) {}

  async create(grant: { userId: string; clientId: string; scope: string }): Promise<Grant> {
    const repository = this.source.getRepository(OAuthGrantEntity);
    const result = await repository.insert(grant);
    return { ...grant, id: String(result.identifiers[0].id), revokedAt: null };
  }

  async revoke(id: string): Promise<void> {
    await this.source
      .getRepository(OAuthGrantEntity)
      .update({ id, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Every live grant of one user to one client: "revoke access" ends them all. */
  async findActiveIds(userId: string, clientId: string): Promise<string[]> {
    const entities = await this.source
      .getRepository(OAuthGrantEntity)
      .findBy({ userId, clientId, revokedAt: IsNull() });
    return entities.map((entity) => String(entity.id));
  }

  async listConnectedApps(userId: string): Promise<ConnectedApp[]> {
    const rows: Array<{ client_id: string; name: string; scope: string; first: Date }> =
      await this.source.query(
        `SELECT g.client_id, c.name, c.scope, min(g.created_at) AS first
           FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
          WHERE g.user_id = $1 AND g.revoked_at IS NULL
          GROUP BY g.client_id, c.name, c.scope ORDER BY c.name`,
        [userId],
      );
    return rows.map((row) => ({
      clientId: row.client_id,
      clientName: row.name,
      scope: row.scope,
      firstGrantedAt: row.first,
    }));
  }
}
