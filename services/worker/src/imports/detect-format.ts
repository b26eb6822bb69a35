import type { ImportFormat } from '@pfs/contracts';

/** The header the PFS export writes for entries (docs/exports.md). */
export const PFS_CSV_HEADER = ['Date', 'Account', 'Category', 'Tags', 'Amount', 'Currency', 'Description'];

/** Splits the first line of a CSV sample on `delimiter` (quotes removed), for header checks. */
export function headerCells(sample: string, delimiter: string): string[] {
  const line = sample.split(/\r?\n/, 1)[0] ?? '';
  return line.split(delimiter).map((cell) => cell.trim().replace(/^"|"$/g, ''));
}

/**
 * The candidate delimiter that splits the first lines of a CSV into the same, largest number of cells
 * (quoted text is ignored); `,` when none does.
 */
export function detectDelimiter(sample: string): string {
  const lines = sample
    .split(/\r?\n/)
    .filter((line) => line.trim())
    .slice(0, 10)
    .map((line) => line.replace(/"[^"]*"/g, '""'));
  let best = { delimiter: ',', score: 0 };
  for (const delimiter of [',', ';', '\t', '|']) {
    const counts = lines.map((line) => line.split(delimiter).length - 1);
    const consistent = counts.filter((count) => count === counts[0]).length;
    const score = counts[0] > 0 ? counts[0] * consistent : 0;
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/** The format of a statement from its first characters (decoded text). */
export function detectFormat(sample: string): ImportFormat {
  const head = sample.replace(/^\uFEFF/, '').trimStart();
  if (/^OFXHEADER\s*:/i.test(head) || /<\?OFX\b|<OFX>/i.test(head.slice(0, 4096))) return 'ofx';
  if (/camt\.053|<BkToCstmrStmt\b/.test(head.slice(0, 4096))) return 'camt053';
  if (/^!(Type|Account|Option)/i.test(head)) return 'qif';
  const cells = headerCells(head, detectDelimiter(head)).map((cell) => cell.toLowerCase());
  if (PFS_CSV_HEADER.every((name, index) => cells[index] === name.toLowerCase())) return 'pfs_csv';
  if (cells.includes('expense amount') && cells.includes('income amount')) return 'toshl_csv';
  return 'csv';
}
