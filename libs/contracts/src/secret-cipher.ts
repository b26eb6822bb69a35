import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * A secret that must stay readable (a TOTP seed, a webhook's HMAC key), so it cannot be hashed: encrypted at
 * rest with AES-256-GCM (random 96-bit IV, authenticated) under a 32-byte key. Stored form:
 * `v1.<iv>.<tag>.<ciphertext>`, base64url parts. `names` words the errors for the secret it keeps.
 */
export class SecretCipher {
  private readonly key: Buffer;

  constructor(
    base64UrlKey: string,
    private readonly names: { key: string; secret: string },
  ) {
    this.key = Buffer.from(base64UrlKey, 'base64url');
    if (this.key.length !== 32) throw new Error(`the ${names.key} must be 32 bytes`);
  }

  encrypt(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
    return [VERSION, ...parts].join('.');
  }

  /** Throws when the value was not produced with this key (tampered, or the key changed). */
  decrypt(stored: string): string {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
      throw new Error(`the stored ${this.names.secret} is not in the encrypted format`);
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
