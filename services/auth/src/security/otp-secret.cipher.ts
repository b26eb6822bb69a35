import { SecretCipher } from '@pfs/contracts';

/** TOTP secrets must be readable to check a code, so they cannot be hashed: encrypted at rest (SecretCipher). */
export class OtpSecretCipher extends SecretCipher {
  constructor(base64UrlKey: string) {
    super(base64UrlKey, { key: 'OTP encryption key', secret: 'OTP secret' });
  }
}
