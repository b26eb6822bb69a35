import { CliIo, CliUsageError } from '../cli-context';

/**
 * The password from `--password` or, with `--password-stdin`, from standard input (one trailing newline
 * dropped), so it need not appear in the shell history or the process list.
 */
export async function passwordOf(
  values: { password?: string; 'password-stdin'?: boolean },
  io: CliIo,
  usage: string,
): Promise<string> {
  if (values['password-stdin']) {
    if (values.password !== undefined) {
      throw new CliUsageError(`--password and --password-stdin exclude each other: ${usage}`);
    }
    if (!io.readStdin) throw new CliUsageError('--password-stdin: no standard input to read');
    return (await io.readStdin()).replace(/\r?\n$/, '');
  }
  if (values.password === undefined) {
    throw new CliUsageError(`--password or --password-stdin is required: ${usage}`);
  }
  return values.password;
}
