import { createUser, loadOtpKey, OtpSecretCipher, PasswordHasher } from '@pfs/auth';
import { parseArgs } from 'node:util';
import { CliConfig, CliIo, CliUsageError } from '../cli-context';
import { USER_CREATE_USAGE } from '../usage';
import { passwordOf } from './password-input';
import { withCliDependencies } from '../dependencies';

/** `user:create`: prints {id, email} and, with --otp, the base32 TOTP secret to load into an authenticator. */
export async function userCreateCommand(config: CliConfig, args: string[], io: CliIo): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      currency: { type: 'string' },
      otp: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.email) throw new CliUsageError(`--email is required: ${USER_CREATE_USAGE}`);
  const password = await passwordOf(values, io, USER_CREATE_USAGE);
  return withCliDependencies(config, async (deps) => {
    const created = await createUser(
      // The TOTP secret is stored encrypted with the auth service's AUTH_OTP_ENCRYPTION_KEY.
      { repos: deps.repos, passwords: new PasswordHasher(), otpCipher: new OtpSecretCipher(loadOtpKey()) },
      {
        email: values.email!,
        password,
        firstName: values['first-name'],
        lastName: values['last-name'],
        currency: values.currency,
        enableOtp: values.otp,
      },
    );
    return {
      id: created.user.id,
      email: created.user.email,
      ...(created.otpSecret ? { otp_secret: created.otpSecret } : {}),
    };
  });
}
