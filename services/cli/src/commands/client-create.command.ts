import { createClient } from '@pfs/auth';
import { parseArgs } from 'node:util';
import { CliConfig, CliUsageError } from '../cli-context';
import { CLIENT_CREATE_USAGE } from '../usage';
import { withCliDependencies } from '../dependencies';

/** `client:create`: registers an application and prints its credentials (the secret only this once). */
export async function clientCreateCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      'redirect-uri': { type: 'string' },
      scope: { type: 'string' },
      implicit: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.name || !values['redirect-uri'] || !values.scope) {
    throw new CliUsageError(`--name, --redirect-uri and --scope are required: ${CLIENT_CREATE_USAGE}`);
  }
  return withCliDependencies(config, (deps) =>
    createClient(deps, {
      name: values.name!,
      redirectUri: values['redirect-uri']!,
      scope: values.scope!,
      implicit: values.implicit,
    }),
  );
}
