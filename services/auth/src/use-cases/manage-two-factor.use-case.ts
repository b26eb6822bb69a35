import { inputError } from '@pfs/errors';
import QRCode from 'qrcode';
import type { PasswordHasher } from '../password-hasher';
import type { OtpSecretCipher } from '../security/otp-secret.cipher';
import { generateRecoveryCodes, hashRecoveryCode } from '../security/recovery-codes';
import { generateTotpSecret, matchTotpStep, totpUri } from '../security/totp';
import type { AuthRepositories } from '../auth-repositories';

export interface TwoFactorDependencies {
  repos: Pick<AuthRepositories, 'credentials' | 'recoveryCodes'>;
  otpCipher: OtpSecretCipher;
  passwords: PasswordHasher;
}

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

export interface TwoFactorSetup {
  secret: string;
  uri: string;
  /** A PNG data URL of the `otpauth://` URI, for the page's <img>. */
  qrCode: string;
}

async function getCredential(deps: TwoFactorDependencies, userId: string) {
  const credential = await deps.repos.credentials.findByUserId(userId);
  if (!credential) throw new Error(`user ${userId} has no credential`);
  return credential;
}

export async function getTwoFactorStatus(
  deps: TwoFactorDependencies,
  userId: string,
): Promise<TwoFactorStatus> {
  const credential = await getCredential(deps, userId);
  const enabled = credential.otpEnabledAt !== null;
  return { enabled, recoveryCodesLeft: enabled ? await deps.repos.recoveryCodes.countUnused(userId) : 0 };
}

/** Step 1: a new secret, stored encrypted but not in force until the user proves their app has it. */
export async function beginTwoFactorSetup(
  deps: TwoFactorDependencies,
  options: { userId: string; accountName: string },
): Promise<TwoFactorSetup> {
  const credential = await getCredential(deps, options.userId);
  if (credential.otpEnabledAt) throw inputError([{ field: 'two_factor', error: 'is already on' }]);
  const secret = generateTotpSecret();
  await deps.repos.credentials.updateOtp(options.userId, {
    otpSecret: deps.otpCipher.encrypt(secret),
    otpEnabledAt: null,
  });
  return describeSetup(options.accountName, secret);
}

/** The setup in progress (after a mistyped code), shown again from the stored secret. */
export async function findPendingSetup(
  deps: TwoFactorDependencies,
  options: { userId: string; accountName: string },
): Promise<TwoFactorSetup | undefined> {
  const credential = await getCredential(deps, options.userId);
  if (credential.otpEnabledAt || !credential.otpSecret) return undefined;
  return describeSetup(options.accountName, deps.otpCipher.decrypt(credential.otpSecret));
}

async function describeSetup(accountName: string, secret: string): Promise<TwoFactorSetup> {
  const uri = totpUri(accountName, secret);
  return { secret, uri, qrCode: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1 }) };
}

/** Step 2: a correct code from the app turns two-factor on; returns recovery codes, shown this once. */
export async function enableTwoFactor(
  deps: TwoFactorDependencies,
  options: { userId: string; code: unknown },
): Promise<string[]> {
  const credential = await getCredential(deps, options.userId);
  if (credential.otpEnabledAt) throw inputError([{ field: 'two_factor', error: 'is already on' }]);
  if (!credential.otpSecret) throw inputError([{ field: 'two_factor', error: 'setup has not been started' }]);
  const code = typeof options.code === 'string' ? options.code.trim() : '';
  if (matchTotpStep(code, deps.otpCipher.decrypt(credential.otpSecret)) === undefined) {
    throw inputError([{ field: 'code', error: 'is not the current code of your authenticator app' }]);
  }
  const recoveryCodes = generateRecoveryCodes();
  await deps.repos.recoveryCodes.replaceAll(options.userId, recoveryCodes.map(hashRecoveryCode));
  await deps.repos.credentials.updateOtp(options.userId, {
    otpSecret: credential.otpSecret,
    otpEnabledAt: new Date(),
  });
  return recoveryCodes;
}

/** Turning two-factor off needs the password, so a borrowed signed-in browser cannot do it silently. */
export async function disableTwoFactor(
  deps: TwoFactorDependencies,
  options: { userId: string; password: unknown },
): Promise<void> {
  const credential = await getCredential(deps, options.userId);
  const password = typeof options.password === 'string' ? options.password : '';
  if (!(await deps.passwords.verify(credential.passwordHash, password))) {
    throw inputError([{ field: 'password', error: 'is incorrect' }]);
  }
  await deps.repos.credentials.disableTwoFactor(options.userId);
}
