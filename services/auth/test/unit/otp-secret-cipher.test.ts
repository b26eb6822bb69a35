import { ConfigError } from '@pfs/config';
import { loadAuthConfig } from '../../src/config';
import { OtpSecretCipher } from '../../src/security/otp-secret.cipher';

const key = Buffer.alloc(32, 7).toString('base64url');

describe('OtpSecretCipher', () => {
  it('when a secret is encrypted, then it decrypts back and the stored form does not contain it', () => {
    const cipher = new OtpSecretCipher(key);
    const stored = cipher.encrypt('JBSWY3DPEHPK3PXP');
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain('JBSWY3DPEHPK3PXP');
    expect(cipher.decrypt(stored)).toBe('JBSWY3DPEHPK3PXP');
    expect(cipher.encrypt('JBSWY3DPEHPK3PXP')).not.toBe(stored);
  });

  it('when the ciphertext was changed or the key differs, then decrypting throws', () => {
    const stored = new OtpSecretCipher(key).encrypt('JBSWY3DPEHPK3PXP');
    const tampered = stored.slice(0, -2) + (stored.endsWith('A') ? 'BB' : 'AA');
    expect(() => new OtpSecretCipher(key).decrypt(tampered)).toThrow();
    expect(() => new OtpSecretCipher(Buffer.alloc(32, 9).toString('base64url')).decrypt(stored)).toThrow();
  });

  it('when AUTH_OTP_ENCRYPTION_KEY is not 32 bytes, then config refuses it', () => {
    expect(() => loadAuthConfig({ AUTH_OTP_ENCRYPTION_KEY: 'short' })).toThrow(
      'AUTH_OTP_ENCRYPTION_KEY: must be 32 bytes, base64url-encoded',
    );
  });

  it('when production runs with the development OTP key, then the config schema refuses it', () => {
    expect(() =>
      loadAuthConfig({ ...process.env, NODE_ENV: 'production', AUTH_OTP_ENCRYPTION_KEY: '' }),
    ).toThrow(ConfigError);
  });
});
