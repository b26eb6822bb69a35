import { DataSource, EntityManager, IsNull } from 'typeorm';
import { CredentialEntity, RecoveryCodeEntity } from '../entities';

export interface Credential {
  userId: string;
  passwordHash: string;
  /** AES-256-GCM ciphertext of the TOTP secret (see OtpSecretCipher). */
  otpSecret: string | null;
  /** Two-factor is in force only once this is set; a secret without it is a setup in progress. */
  otpEnabledAt: Date | null;
  /** When the user opened the verification link of their address; null: unverified (docs/auth.md). */
  emailVerifiedAt: Date | null;
}

/** A new credential: verified at once unless said otherwise (operators' accounts, servers without mail). */
export type NewCredential = Omit<Credential, 'emailVerifiedAt'> & { emailVerifiedAt?: Date | null };

export class CredentialRepository {
  constructor(private readonly source: DataSource | EntityManager) {}

  async findByUserId(userId: string): Promise<Credential | undefined> {
    const entity = await this.source.getRepository(CredentialEntity).findOneBy({ userId });
    return entity ? { ...entity, userId: String(entity.userId) } : undefined;
  }

  async create(credential: NewCredential): Promise<void> {
    const now = new Date();
    await this.source
      .getRepository(CredentialEntity)
      .insert({ emailVerifiedAt: now, ...credential, updatedAt: now });
  }

  /** The user proved they read their address's mail; false when the user has no credential. */
  async markEmailVerified(userId: string): Promise<boolean> {
    const result = await this.source
      .getRepository(CredentialEntity)
      .update({ userId, emailVerifiedAt: IsNull() }, { emailVerifiedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Closes sign-in for good (an account being deleted): the password, two-factor secret and recovery codes
   * go at once, before the deletion job removes the rest.
   */
  async remove(userId: string): Promise<void> {
    await this.source.transaction(async (manager) => {
      await manager.getRepository(RecoveryCodeEntity).delete({ userId });
      await manager.getRepository(CredentialEntity).delete({ userId });
    });
  }

  async updateOtp(
    userId: string,
    otp: { otpSecret: string | null; otpEnabledAt: Date | null },
  ): Promise<void> {
    await this.source.getRepository(CredentialEntity).update({ userId }, { ...otp, updatedAt: new Date() });
  }

  /** A new password hash (an operator's reset); false when the user has no credential. */
  async updatePasswordHash(userId: string, passwordHash: string): Promise<boolean> {
    const result = await this.source
      .getRepository(CredentialEntity)
      .update({ userId }, { passwordHash, updatedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Turns two-factor off: the TOTP secret and every recovery code go, together (one transaction). False when
   * the user has no credential.
   */
  async disableTwoFactor(userId: string): Promise<boolean> {
    return this.source.transaction(async (manager) => {
      const result = await manager
        .getRepository(CredentialEntity)
        .update({ userId }, { otpSecret: null, otpEnabledAt: null, updatedAt: new Date() });
      if (!result.affected) return false;
      await manager.getRepository(RecoveryCodeEntity).delete({ userId });
      return true;
    });
  }
}
