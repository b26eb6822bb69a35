import {
  Env,
  corsShape,
  defineConfig,
  envInt,
  envOptionalPort,
  envPort,
  envSecret,
  metricsShape,
  serviceShape,
  envString,
  envOptionalUrl,
} from '@pfs/config';
import { z } from 'zod';

/** Development default of the TOTP-secret key; the config schema refuses it in production (envSecret). */
export const DEVELOPMENT_OTP_KEY = 'ZGV2LW9ubHktb3RwLWtleS1jaGFuZ2UtbWUtMzJieXQ';

/** 32 bytes, base64 or base64url: the AES-256-GCM key that encrypts TOTP secrets at rest. */
const otpKeyField = envSecret(
  DEVELOPMENT_OTP_KEY,
  z
    .string()
    .refine((value) => Buffer.from(value, 'base64url').length === 32, 'must be 32 bytes, base64url-encoded'),
);

export const authConfigShape = {
  ...serviceShape,
  ...corsShape,
  AUTH_PORT: envPort(3001),
  /** Interface to listen on; 0.0.0.0 inside containers. */
  AUTH_HOST: envString('127.0.0.1'),
  /** Serves GET /metrics on this separate port when set (docs/operations.md); unset: no metrics listener. */
  AUTH_METRICS_PORT: envOptionalPort(),
  /** Auth processes behind AUTH_PORT in this container (node:cluster); 1 runs auth in this process (docs/scaling.md). */
  AUTH_WORKERS: envInt(1, 1, 64),
  ...metricsShape,
  ACCESS_TOKEN_TTL_SECONDS: envInt(3600, 60, 86_400 * 30),
  AUTH_CODE_TTL_SECONDS: envInt(30, 1, 600),
  /** How long a sign-in on the authorization pages lasts. */
  SESSION_TTL_SECONDS: envInt(43_200, 60, 86_400 * 30),
  AUTH_OTP_ENCRYPTION_KEY: otpKeyField,
  /** A rotated refresh token presented again within this many seconds is a retry, not a theft. */
  AUTH_REFRESH_REUSE_GRACE_SECONDS: envInt(10, 0, 300),
  /** The window every brute-force counter below counts in. */
  AUTH_RATE_LIMIT_WINDOW_SECONDS: envInt(900, 1, 86_400),
  /** Failed sign-ins allowed per account, and per client IP, in one window. */
  AUTH_SIGNIN_MAX_FAILURES_PER_ACCOUNT: envInt(10, 1, 10_000),
  AUTH_SIGNIN_MAX_FAILURES_PER_IP: envInt(100, 1, 1_000_000),
  /** Wrong two-factor codes allowed per account in one window. */
  AUTH_OTP_MAX_FAILURES: envInt(5, 1, 1_000),
  /** Authorization requests per client IP in one window; past it the client gets temporarily_unavailable. */
  AUTH_AUTHORIZE_MAX_REQUESTS_PER_IP: envInt(3_000, 1, 10_000_000),
  /** Token endpoint requests per client IP, and failed ones per client id, in one window. */
  AUTH_TOKEN_MAX_REQUESTS_PER_IP: envInt(3_000, 1, 10_000_000),
  AUTH_TOKEN_MAX_FAILURES_PER_CLIENT: envInt(100, 1, 1_000_000),
  /**
   * The SMTP server of account mail (smtp://user:pass@host:port). Set: sign-up verifies the address and a
   * forgotten password is reset by mail. Unset: new accounts count as verified and reset is the operator's.
   */
  SMTP_URL: envOptionalUrl(),
  SMTP_FROM: envString('PFS <no-reply@localhost>'),
  /** Account mails (verification, reset) one address or one client IP may ask for in one window. */
  AUTH_MAIL_MAX_PER_ADDRESS: envInt(5, 1, 1_000),
  AUTH_MAIL_MAX_PER_IP: envInt(50, 1, 1_000_000),
  /** Dynamic client registrations (POST /oauth2/register) per client IP in one window. */
  AUTH_REGISTER_MAX_PER_IP: envInt(20, 1, 1_000_000),
};

export type AuthConfig = ReturnType<typeof loadAuthConfig>;

export function loadAuthConfig(env: Env = process.env) {
  return defineConfig(authConfigShape, env);
}

/** Only the OTP key, for tools (the CLI) that create users with two-factor outside the service. */
export function loadOtpKey(env: Env = process.env): string {
  return defineConfig({ AUTH_OTP_ENCRYPTION_KEY: otpKeyField }, env).AUTH_OTP_ENCRYPTION_KEY;
}
