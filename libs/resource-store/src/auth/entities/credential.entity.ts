import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Sign-in secrets, kept apart from the profile the API serves. */
@Entity({ name: 'auth_credentials' })
export class CredentialEntity {
  @PrimaryColumn({ name: 'user_id', type: 'bigint' })
  userId!: string;

  /** argon2id hash (PHC string). */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  /** The TOTP secret, AES-256-GCM encrypted (OtpSecretCipher); set at setup, in force once otp_enabled_at is. */
  @Column({ name: 'otp_secret', type: 'text', nullable: true })
  otpSecret!: string | null;

  @Column({ name: 'otp_enabled_at', type: 'timestamptz', nullable: true })
  otpEnabledAt!: Date | null;

  /** When the user opened the verification link mailed to their address; null: not verified yet. */
  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
