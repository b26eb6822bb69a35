/** One transaction read from a statement, before it is matched against the user's data. */
export interface ParsedRow {
  /** 1-based line of the file where the row starts (CSV: its record's first line). */
  line: number;
  /** YYYY-MM-DD. */
  date: string;
  /** Exact signed decimal text: negative is money out of the account. */
  amount: string;
  /** ISO 4217 code when the file says (else the account's currency). */
  currency?: string;
  description?: string;
  category?: string;
  tags: string[];
  /** The bank's own id of the transaction (OFX FITID, CAMT AcctSvcrRef): the best duplicate key. */
  fitid?: string;
}

/** A file that cannot be imported as it is: where (line, field) and why, in words for the user. */
export class ImportFileError extends Error {
  constructor(
    readonly line: number | undefined,
    readonly field: string | undefined,
    readonly reason: string,
  ) {
    super(`${line ? `line ${line}: ` : ''}${field ? `${field} ` : ''}${reason}`);
    this.name = 'ImportFileError';
  }
}

/** Text longer than the API accepts is cut (descriptions, names). */
export const clip = (text: string | undefined, max: number): string | undefined => {
  const value = text?.replace(/\s+/g, ' ').trim();
  return value ? [...value].slice(0, max).join('') : undefined;
};

/** A description as written (line breaks kept: a PFS export round-trips them), trimmed and capped. */
export const clipText = (text: string | undefined, max: number): string | undefined => {
  const value = text?.trim();
  return value ? [...value].slice(0, max).join('') : undefined;
};
