import { parseEcbRates, SHIPPED_RATES_FILE } from '@pfs/money';
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CliConfig, CliUsageError } from '../cli-context';
import { RATES_IMPORT_USAGE } from '../usage';
import { withCliDependencies } from '../dependencies';

/** `rates:import`: loads EUR reference rates from a file in the ECB CSV format; prints {file, days, rates}. */
export async function ratesImportCommand(config: CliConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { file: { type: 'string' } }, strict: true });
  const file = values.file ?? SHIPPED_RATES_FILE;
  await access(file).catch(() => {
    throw new CliUsageError(`cannot read ${file}: ${RATES_IMPORT_USAGE}`);
  });
  return withCliDependencies(config, async (deps) => {
    const result = await deps.repos.currencyRates.importRates(parseEcbRates(createReadStream(file)));
    return { file, ...result };
  });
}
