import { inputError } from '@pfs/errors';
import type { User } from '@pfs/resource-store';
import { z } from 'zod';
import type { AuthRepositories } from '../auth-repositories';
import type { PasswordHasher } from '../password-hasher';
import type { OtpSecretCipher } from '../security/otp-secret.cipher';
import { generateTotpSecret } from '../security/totp';

export const NewUserInputSchema = z.object({
  email: z.string().trim().max(254, 'must be at most 254 characters').email('must be an email address'),
  password: z.string().min(8, 'must be at least 8 characters').max(1024, 'must be at most 1024 characters'),
  firstName: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  lastName: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code of three capital letters')
    .default('EUR'),
  enableOtp: z.boolean().default(false),
});

export type NewUserInput = z.input<typeof NewUserInputSchema>;

export interface CreatedUser {
  user: User;
  /** Base32 TOTP secret, returned once when two-factor is enabled at creation. */
  otpSecret?: string;
}

/** Creates a user with a password (and optionally two-factor) in one transaction. */
export async function createUser(
  deps: {
    repos: Pick<AuthRepositories, 'users' | 'userAccounts'>;
    passwords: PasswordHasher;
    otpCipher?: OtpSecretCipher;
  },
  input: NewUserInput,
  /** Sign-up on a server that sends mail creates the account unverified until the link is opened. */
  options: { emailVerified?: boolean } = {},
): Promise<CreatedUser> {
  const parsed = NewUserInputSchema.safeParse(input);
  if (!parsed.success) {
    throw inputError(
      parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), error: issue.message })),
    );
  }
  const data = parsed.data;
  if (await deps.repos.users.findByEmail(data.email)) {
    throw inputError([{ field: 'email', error: 'is already registered' }]);
  }
  const passwordHash = await deps.passwords.hash(data.password);
  if (data.enableOtp && !deps.otpCipher) throw new Error('enabling two-factor needs the OTP secret cipher');
  const otpSecret = data.enableOtp ? generateTotpSecret() : undefined;
  const user = await deps.repos.userAccounts.create(
    { email: data.email, firstName: data.firstName, lastName: data.lastName, currency: data.currency },
    {
      passwordHash,
      // Stored encrypted: the secret must stay readable to check codes, so it cannot be hashed.
      otpSecret: otpSecret && deps.otpCipher ? deps.otpCipher.encrypt(otpSecret) : null,
      otpEnabledAt: otpSecret ? new Date() : null,
      emailVerifiedAt: options.emailVerified === false ? null : new Date(),
    },
  );
  return { user, otpSecret };
}
