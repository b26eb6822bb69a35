import { parseArgs } from 'node:util';
import { CliConfig, CliUsageError } from '../cli-context';
import { withCliDependencies } from '../dependencies';

/**
 * `client:prune-registrations`: deletes the applications that registered themselves (RFC 7591, e.g. AI
 * assistants connecting over MCP) more than --older-than-days ago and that no user ever allowed.
 */
export async function clientPruneCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { 'older-than-days': { type: 'string' } }, strict: true });
  const raw = values['older-than-days'];
  const days = raw === undefined ? 30 : Number(raw);
  if (!Number.isInteger(days) || days < 0 || days > 3650) {
    throw new CliUsageError(
      `--older-than-days: must be an integer from 0 to 3650 (got ${JSON.stringify(raw)})`,
    );
  }
  const createdBefore = new Date(Date.now() - days * 86_400_000);
  const deleted = await withCliDependencies(config, (deps) =>
    deps.repos.clients.deleteUnusedDynamic(createdBefore),
  );
  return { deleted: deleted.length, client_ids: deleted };
}
