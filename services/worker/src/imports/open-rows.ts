import type { ImportFormat, ImportOptions } from '@pfs/contracts';
import type { Readable } from 'node:stream';
import { parseCamt } from './camt.parser';
import { parseCsv } from './csv.parser';
import { decodeText } from './decode-text';
import { detectDelimiter, detectFormat } from './detect-format';
import { parseOfx } from './ofx.parser';
import type { ParsedRow } from './parsed-row';
import { parseQif } from './qif.parser';

/** A statement opened for reading: its format (given or detected) and its rows, streamed. */
export interface StatementRows {
  format: ImportFormat;
  encoding: string;
  rows: AsyncGenerator<ParsedRow>;
}

/** Decodes the stored file, detects what the client left to detection, and picks the parser. */
export async function openStatementRows(
  body: Readable,
  format: ImportFormat | null,
  options: ImportOptions,
): Promise<StatementRows> {
  const text = await decodeText(body, options.encoding);
  const chosen = format ?? detectFormat(text.sample);
  const rows = (): AsyncGenerator<ParsedRow> => {
    switch (chosen) {
      case 'ofx':
        return parseOfx(text.chunks);
      case 'qif':
        return parseQif(text.chunks, options);
      case 'camt053':
        return parseCamt(text.chunks);
      default:
        return parseCsv(text.chunks, chosen, {
          ...options,
          delimiter: options.delimiter ?? detectDelimiter(text.sample.replace(/^\uFEFF/, '')),
        });
    }
  };
  return { format: chosen, encoding: text.encoding, rows: rows() };
}
