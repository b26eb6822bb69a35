import { DataSource, IsNull } from 'typeorm';
import { RecoveryCodeEntity } from '../entities';

export class RecoveryCodeRepository {
  constructor(private readonly source: DataSource) {}

  /** Replaces the user's codes with a new set (hashes only). */
  async replaceAll(userId: string, codeHashes: string[]): Promise<void> {
    const repository = this.source.getRepository(RecoveryCodeEntity);
    await repository.delete({ userId });
    if (codeHashes.length) await repository.insert(codeHashes.map((codeHash) => ({ userId, codeHash })));
  }

  /** Uses up one code; false when it is not an unused code of this user. Atomic, so a code works once. */
  async consume(userId: string, codeHash: string): Promise<boolean> {
    const result = await this.source
      .getRepository(RecoveryCodeEntity)
      .update({ userId, codeHash, usedAt: IsNull() }, { usedAt: new Date() });
    return (result.affected ?? 0) === 1;
  }

  async countUnused(userId: string): Promise<number> {
    return this.source.getRepository(RecoveryCodeEntity).countBy({ userId, usedAt: IsNull() });
  }
}
