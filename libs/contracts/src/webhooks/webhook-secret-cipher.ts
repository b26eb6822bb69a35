import { randomBytes } from 'node:crypto';
import { SecretCipher } from '../secret-cipher';

/**
 * A webhook's signing secret is an HMAC key: the worker needs it verbatim to sign, so it cannot be hashed.
 * It is encrypted at rest (SecretCipher: AES-256-GCM) under WEBHOOK_SECRET_KEY, as the auth service does for
 * TOTP secrets. The API encrypts (at creation), the worker decrypts (at delivery): both must agree on this format.
 */
export class WebhookSecretCipher extends SecretCipher {
  constructor(base64UrlKey: string) {
    super(base64UrlKey, { key: 'webhook secret key', secret: 'webhook secret' });
  }
}

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
