import { ConfigError, Env } from '@pfs/config';
import { AppError } from '@pfs/errors';
import { CliConfig, CliIo, CliUsageError, loadCliConfig } from './cli-context';
import {
  CLIENT_CREATE_USAGE,
  CLIENT_DELETE_USAGE,
  CLIENT_PRUNE_USAGE,
  CLIENT_LIST_USAGE,
  MIGRATE_USAGE,
  RATES_IMPORT_USAGE,
  TOKEN_REVOKE_ALL_USAGE,
  USER_CREATE_USAGE,
  USER_DELETE_USAGE,
  USER_DISABLE_OTP_USAGE,
  USER_LIST_USAGE,
  USER_RESET_PASSWORD_USAGE,
} from './usage';

interface Command {
  usage: string;
  summary: string;
  run(config: CliConfig, args: string[], io: CliIo, env: Env): Promise<unknown>;
}

const COMMANDS: Record<string, Command> = {
  migrate: {
    usage: MIGRATE_USAGE,
    summary: 'Creates the database if missing and applies every pending migration.',
    run: async (config) => (await import('./commands/migrate.command')).migrateCommand(config),
  },
  'user:create': {
    usage: USER_CREATE_USAGE,
    summary: 'Creates a user; prints {id, email} (and otp_secret with --otp).',
    run: async (config, args, io) =>
      (await import('./commands/user-create.command')).userCreateCommand(config, args, io),
  },
  'user:list': {
    usage: USER_LIST_USAGE,
    summary: 'Lists users by id (no secrets).',
    run: async (config, args) => (await import('./commands/list.commands')).userListCommand(config, args),
  },
  'user:reset-password': {
    usage: USER_RESET_PASSWORD_USAGE,
    summary: "Sets a new password and ends the user's tokens in every application.",
    run: async (config, args, io) =>
      (await import('./commands/account.commands')).userResetPasswordCommand(config, args, io),
  },
  'user:disable-otp': {
    usage: USER_DISABLE_OTP_USAGE,
    summary: 'Turns two-factor sign-in off (lost authenticator); removes the recovery codes.',
    run: async (config, args) =>
      (await import('./commands/account.commands')).userDisableOtpCommand(config, args),
  },
  'user:delete': {
    usage: USER_DELETE_USAGE,
    summary: 'Deletes a user with all their data, stored files and tokens (asks for --yes).',
    run: async (config, args, _io, env) =>
      (await import('./commands/user-delete.command')).userDeleteCommand(config, args, env),
  },
  'client:create': {
    usage: CLIENT_CREATE_USAGE,
    summary: 'Registers an application; prints its credentials, the secret only this once.',
    run: async (config, args) =>
      (await import('./commands/client-create.command')).clientCreateCommand(config, args),
  },
  'client:list': {
    usage: CLIENT_LIST_USAGE,
    summary: 'Lists registered applications.',
    run: async (config, args) => (await import('./commands/list.commands')).clientListCommand(config, args),
  },
  'client:delete': {
    usage: CLIENT_DELETE_USAGE,
    summary: 'Deletes an application with its grants and tokens (they stop working at once).',
    run: async (config, args) =>
      (await import('./commands/account.commands')).clientDeleteCommand(config, args),
  },
  'client:prune-registrations': {
    usage: CLIENT_PRUNE_USAGE,
    summary: 'Deletes self-registered applications (RFC 7591) older than N days that no user ever allowed.',
    run: async (config, args) =>
      (await import('./commands/client-prune.command')).clientPruneCommand(config, args),
  },
  'token:revoke-all': {
    usage: TOKEN_REVOKE_ALL_USAGE,
    summary: 'Revokes every grant and token of a user, at once for the API (Redis) and the auth service.',
    run: async (config, args) =>
      (await import('./commands/token-revoke-all.command')).tokenRevokeAllCommand(config, args),
  },
  'rates:import': {
    usage: RATES_IMPORT_USAGE,
    summary: 'Imports an ECB reference-rate CSV (the shipped history by default).',
    run: async (config, args) =>
      (await import('./commands/rates-import.command')).ratesImportCommand(config, args),
  },
};

const PREFIX = 'usage: npm run --silent pfs -- ';
const USAGE = `${PREFIX}<command> [options]   (<command> --help for its options)
commands:
${Object.values(COMMANDS)
  .map((command) => `  ${command.usage}\n      ${command.summary}`)
  .join('\n')}`;

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/** `--redirect-uri`, as the operator typed it, for a field our use cases name `redirectUri`. */
const flagOf = (field: string) => `--${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** Runs one operator command (its module loaded only now); prints JSON on stdout, a readable message on stderr, and returns the exit code. */
export async function runCli(argv: string[], io: CliIo, env: Env = process.env): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`unknown command "${name}"\n${USAGE}`);
    return 2;
  }
  if (wantsHelp(args)) {
    io.stdout(`${PREFIX}${command.usage}\n${command.summary}`);
    return 0;
  }
  try {
    const result = await command.run(loadCliConfig(env), args, io, env);
    io.stdout(JSON.stringify(result));
    return 0;
  } catch (error) {
    if (error instanceof CliUsageError || error instanceof ConfigError) {
      io.stderr(error.message);
      return 2;
    }
    if (error instanceof AppError && error.isExposed) {
      const fields = error.fields?.map((f) => `  ${flagOf(f.field)}: ${f.error}`).join('\n');
      io.stderr(fields ? `${error.message}\n${fields}` : error.message);
      return 2;
    }
    // Checked by code, not class: node's argument errors may come from another realm.
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`${(error as Error).message}\n${PREFIX}${command.usage}`);
      return 2;
    }
    io.stderr(`pfs ${name} failed: ${(error as Error).message}`);
    return 1;
  }
}
