import { randomBytes } from 'node:crypto';

/** The secrets docker-compose.yml requires (`${VAR:?message}`). */
export const requiredSecrets = [
  'POSTGRES_PASSWORD',
  'S3_SECRET_ACCESS_KEY',
  'SYNC_TOKEN_SECRET',
  'EXPORT_LINK_SECRET',
  'AUTH_OTP_ENCRYPTION_KEY',
  'WEBHOOK_SECRET_KEY',
];

/** What an operator's .env holds after following the README: each secret generated as it says. */
export function composeTestVars(): Record<string, string> {
  return {
    POSTGRES_PASSWORD: randomBytes(24).toString('hex'),
    S3_SECRET_ACCESS_KEY: randomBytes(24).toString('hex'),
    SYNC_TOKEN_SECRET: randomBytes(32).toString('hex'),
    EXPORT_LINK_SECRET: randomBytes(32).toString('hex'),
    AUTH_OTP_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64url'),
  };
}
