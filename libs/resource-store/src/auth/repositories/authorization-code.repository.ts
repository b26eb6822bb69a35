import { DataSource, IsNull } from 'typeorm';
import { AuthorizationCodeEntity } from '../entities';

export type AuthorizationCodeRecord = Omit<AuthorizationCodeEntity, 'createdAt'>;

export class AuthorizationCodeRepository {
  constructor(private readonly source: DataSource) {}

  async create(code: Omit<AuthorizationCodeRecord, 'usedAt'>): Promise<void> {
    await this.source.getRepository(AuthorizationCodeEntity).insert({ ...code, usedAt: null });
  }

  async findByHash(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    const entity = await this.source.getRepository(AuthorizationCodeEntity).findOneBy({ codeHash });
    return entity ? { ...entity, grantId: String(entity.grantId), userId: String(entity.userId) } : undefined;
  }

  /** Marks the code used; false when it already was (a concurrent or repeated exchange). */
  async markUsed(codeHash: string): Promise<boolean> {
    const result = await this.source
      .getRepository(AuthorizationCodeEntity)
      .update({ codeHash, usedAt: IsNull() }, { usedAt: new Date() });
    return (result.affected ?? 0) === 1;
  }
}
