import { ConfigError, Env } from '@pfs/config';
import { AppError } from '@pfs/errors';
import { CliIo, CliUsageError, loadCliConfig } from './cli-context';
import { CLIENT_CREATE_USAGE, clientCreateCommand } from './commands/client-create.command';
import { migrateCommand } from './commands/migrate.command';
import { RATES_IMPORT_USAGE, ratesImportCommand } from './commands/rates-import.command';
import { USER_CREATE_USAGE, userCreateCommand } from './commands/user-create.command';

const USAGE = `usage: npm run --silent pfs -- <command>
commands:
  migrate
  ${USER_CREATE_USAGE}
  ${CLIENT_CREATE_USAGE}
  ${RATES_IMPORT_USAGE}`;

/** Runs one operator command; prints JSON on stdout, a readable message on stderr, and returns the exit code. */
export async function runCli(argv: string[], io: CliIo, env: Env = process.env): Promise<number> {
  const [command, ...args] = argv;
  try {
    const config = loadCliConfig(env);
    let result: unknown;
    switch (command) {
      case 'migrate':
        result = await migrateCommand(config);
        break;
      case 'user:create':
        result = await userCreateCommand(config, args);
        break;
      case 'client:create':
        result = await clientCreateCommand(config, args);
        break;
      case 'rates:import':
        result = await ratesImportCommand(config, args);
        break;
      default:
        throw new CliUsageError(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
    }
    io.stdout(JSON.stringify(result));
    return 0;
  } catch (error) {
    if (error instanceof CliUsageError || error instanceof ConfigError) {
      io.stderr(error.message);
      return 2;
    }
    if (error instanceof AppError && error.isExposed) {
      const fields = error.fields?.map((f) => `  ${f.field}: ${f.error}`).join('\n');
      io.stderr(fields ? `${error.message}\n${fields}` : error.message);
      return 2;
    }
    // Checked by code, not class: node's argument errors may come from another realm.
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    io.stderr(`pfs ${command ?? ''} failed: ${(error as Error).message}`);
    return 1;
  }
}
