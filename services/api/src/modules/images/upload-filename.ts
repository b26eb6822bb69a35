import { inputError } from '@pfs/errors';
import { FILENAME_PATTERN, MAX_FILENAME_LENGTH } from './images.schema';

const FILENAME = new RegExp(FILENAME_PATTERN, 'u');

/**
 * The file name of an upload. The `filename` query parameter must follow the schema's rule (400 naming
 * it); a multipart part's name comes from the client's file system, so it is cleaned instead: path and
 * control characters dropped, cut to the length limit (what is left may be nothing: no name).
 */
export function readFilename(
  value: unknown,
  field: string,
  options: { lenient?: boolean } = {},
): string | undefined {
  if (value === undefined) return undefined;
  if (options.lenient) {
    const cleaned = String(value)
      .split(/[/\\]/)
      .pop()!
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(0, MAX_FILENAME_LENGTH);
    return cleaned || undefined;
  }
  if (
    typeof value !== 'string' ||
    !value.length ||
    value.length > MAX_FILENAME_LENGTH ||
    !FILENAME.test(value)
  ) {
    throw inputError([
      {
        field,
        error: `must be a file name of 1–${MAX_FILENAME_LENGTH} characters without / \\ or control characters`,
      },
    ]);
  }
  return value;
}
