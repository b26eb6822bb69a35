import { isResourceId } from '@pfs/contracts';
import { PasswordHasher } from '@pfs/auth';
import { parseArgs } from 'node:util';
import { CliConfig, CliIo, CliUsageError } from '../cli-context';
import { CLIENT_DELETE_USAGE, USER_DISABLE_OTP_USAGE, USER_RESET_PASSWORD_USAGE } from '../usage';
import { passwordOf } from './password-input';
import { withCliDependencies } from '../dependencies';
import { revokeTokensOf } from './token-revoke-all.command';

function userIdOf(raw: string | undefined, usage: string): string {
  if (!raw || !isResourceId(raw))
    throw new CliUsageError(`--user: must be a user id (see user:list): ${usage}`);
  return raw;
}

/** `user:reset-password`: a new argon2id hash; signs the user out of every application (their tokens end). */
export async function userResetPasswordCommand(
  config: CliConfig,
  args: string[],
  io: CliIo,
): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: {
      user: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
    },
    strict: true,
  });
  const userId = userIdOf(values.user, USER_RESET_PASSWORD_USAGE);
  const password = await passwordOf(values, io, USER_RESET_PASSWORD_USAGE);
  if (password.length < 8) throw new CliUsageError('--password: must be at least 8 characters');
  const hash = await new PasswordHasher().hash(password);
  return withCliDependencies(config, async (deps) => {
    if (!(await deps.repos.credentials.updatePasswordHash(userId, hash))) {
      throw new CliUsageError(`--user: no user ${userId}`);
    }
    return { user_id: userId, ...(await revokeTokensOf(deps, { userId })) };
  });
}

/** `user:disable-otp`: for a user who lost their authenticator; the TOTP secret and recovery codes go. */
export async function userDisableOtpCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { user: { type: 'string' } }, strict: true });
  const userId = userIdOf(values.user, USER_DISABLE_OTP_USAGE);
  return withCliDependencies(config, async (deps) => {
    if (!(await deps.repos.credentials.disableTwoFactor(userId))) {
      throw new CliUsageError(`--user: no user ${userId}`);
    }
    return { user_id: userId, otp: false };
  });
}

/** `client:delete`: the application, its grants and tokens go; its live tokens stop working at once. */
export async function clientDeleteCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { client: { type: 'string' } }, strict: true });
  if (!values.client) throw new CliUsageError(`--client is required: ${CLIENT_DELETE_USAGE}`);
  const clientId = values.client;
  return withCliDependencies(config, async (deps) => {
    const revoked = await revokeTokensOf(deps, { clientId });
    if (!(await deps.repos.clients.delete(clientId))) {
      throw new CliUsageError(`--client: no client ${clientId} (see client:list)`);
    }
    return { client_id: clientId, deleted: true, ...revoked };
  });
}
