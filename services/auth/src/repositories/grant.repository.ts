import { DataSource, IsNull } from 'typeorm';
import { OAuthGrantEntity } from '../entities';

export interface Grant {
  id: string;
  userId: string;
  clientId: string;
  scope: string;
  revokedAt: Date | null;
}

export class GrantRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(grant: { userId: string; clientId: string; scope: string }): Promise<Grant> {
    const repository = this.dataSource.getRepository(OAuthGrantEntity);
    const result = await repository.insert(grant);
    return { ...grant, id: String(result.identifiers[0].id), revokedAt: null };
  }

  async findActive(id: string): Promise<Grant | undefined> {
    const entity = await this.dataSource
      .getRepository(OAuthGrantEntity)
      .findOneBy({ id, revokedAt: IsNull() });
    return entity ? { ...entity, id: String(entity.id) } : undefined;
  }

  async revoke(id: string): Promise<void> {
    await this.dataSource
      .getRepository(OAuthGrantEntity)
      .update({ id, revokedAt: IsNull() }, { revokedAt: new Date() });
  }
}
