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

export class ClientRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findById(id: string): Promise<OAuthClientRecord | undefined> {
    const entity = await this.dataSource.getRepository(OAuthClientEntity).findOneBy({ id });
    return entity ?? undefined;
  }

  async create(client: OAuthClientRecord & { ownerUserId?: string | null }): Promise<void> {
    await this.dataSource
      .getRepository(OAuthClientEntity)
      .insert({ ...client, ownerUserId: client.ownerUserId ?? null });
  }

  /** The applications a developer registered through the developer page. */
  async listByOwner(ownerUserId: string): Promise<OAuthClientRecord[]> {
    const entities = await this.dataSource
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
}
