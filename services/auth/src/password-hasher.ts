import argon2 from 'argon2';

/**
 * argon2id with the library's defaults (memory-hard, OWASP-recommended parameters).
 * Unknown accounts are verified against a fixed hash so a sign-in takes the same time either way.
 */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (hash === undefined) {
      this.dummyHash ??= this.hash('pfs-timing-equaliser');
      await argon2.verify(await this.dummyHash, password).catch(() => false);
      return false;
    }
    return argon2.verify(hash, password).catch(() => false);
  }
}
