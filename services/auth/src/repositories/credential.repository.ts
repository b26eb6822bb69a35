import { DataSource, EntityManager } from 'typeorm';
import { CredentialEntity } from '../entities';

export interface Credential {
  userId: string;
  passwordHash: string;
  otpSecret: string | null;
  otpEnabledAt: Date | null;
}

export class CredentialRepository {
  constructor(private readonly source: DataSource | EntityManager) {}

  async findByUserId(userId: string): Promise<Credential | undefined> {
    const entity = await this.source.getRepository(CredentialEntity).findOneBy({ userId });
    return entity ?? undefined;
  }

  async create(credential: Credential): Promise<void> {
    await this.source.getRepository(CredentialEntity).insert({ ...credential, updatedAt: new Date() });
  }
}
