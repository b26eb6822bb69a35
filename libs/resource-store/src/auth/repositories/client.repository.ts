import { DataSource } from 'typeorm';
import { OAuthClientEntity } from '../entities';

export interface OAuthClientRecord {
  id: string;
  name: string;
  secretHash: string;
  redirectUri: string;
  scope: string;
  grants: string[];
}

/** A registered application as the operator lists it (the secret hash never leaves the store here). */
export interface RegisteredClient {
  id: string;
  name: string;
  redirectUri: string;
  scope: string;
  grants: string[];
  createdAt: Date;
}

export class ClientRepository {
  constructor(private readonly source: DataSource) {}

  async findById(id: string): Promise<OAuthClientRecord | undefined> {
    const entity = await this.source.getRepository(OAuthClientEntity).findOneBy({ id });
    return entity ?? undefined;
  }

  async create(client: OAuthClientRecord & { ownerUserId?: string | null }): Promise<void> {
    await this.source
      .getRepository(OAuthClientEntity)
      .insert({ ...client, ownerUserId: client.ownerUserId ?? null });
  }

  /** The applications a developer registered through the developer page. */
  async listByOwner(ownerUserId: string): Promise<OAuthClientRecord[]> {
    const entities = await this.source
      .getRepository(OAuthClientEntity)
      .find({ where: { ownerUserId }, order: { createdAt: 'ASC' } });
    return entities.map(({ id, name, secretHash, redirectUri, scope, grants }) => ({
      id,
      name,
      secretHash,
      redirectUri,
      scope,
      grants,
    }));
  }

  /** Every registered application, oldest first. */
  async listAll(): Promise<RegisteredClient[]> {
    const entities = await this.source
      .getRepository(OAuthClientEntity)
      .find({ order: { createdAt: 'ASC', id: 'ASC' } });
    return entities.map(({ id, name, redirectUri, scope, grants, createdAt }) => ({
      id,
      name,
      redirectUri,
      scope,
      grants,
      createdAt,
    }));
  }

  /** Deletes the application (its grants, codes and tokens cascade); false when there was none. */
  async delete(id: string): Promise<boolean> {
    const result = await this.source.getRepository(OAuthClientEntity).delete({ id });
    return (result.affected ?? 0) > 0;
  }
}
