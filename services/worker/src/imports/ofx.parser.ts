import { parseDate } from './dates';
import { clip, ImportFileError, ParsedRow } from './parsed-row';

/** One tag of an OFX file: `<NAME>text` (an SGML leaf or an XML element's text) or `</NAME>`. */
interface OfxToken {
  closing: boolean;
  name: string;
  text: string;
  line: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) =>
    name[0] === '#'
      ? String.fromCodePoint(
          name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10),
        )
      : (ENTITIES[name.toLowerCase()] ?? whole),
  );

/**
 * A tokenizer for both OFX 1.x (SGML: leaf elements are never closed) and 2.x (XML): each `<NAME>` with the
 * text up to the next `<`, and each `</NAME>`. Headers, `<?…?>` instructions and comments yield nothing. It
 * holds only the text after the last complete tag, so a statement of any size streams in flat memory.
 */
async function* ofxTokens(chunks: AsyncIterable<string>): AsyncGenerator<OfxToken> {
  let buffer = '';
  let line = 1;
  for await (const chunk of chunks) {
    buffer += chunk;
    let position = 0;
    for (;;) {
      const start = buffer.indexOf('<', position);
      if (start < 0) {
        line += countLines(buffer.slice(position));
        position = buffer.length;
        break;
      }
      line += countLines(buffer.slice(position, start));
      position = start;
      const next = buffer.indexOf('<', start + 1);
      // The text of the last tag may go on in the next chunk: kept until a following `<` arrives.
      if (next < 0) break;
      const token = readTag(buffer.slice(start, next), line);
      if (token) yield token;
      line += countLines(buffer.slice(start, next));
      position = next;
    }
    buffer = buffer.slice(position);
  }
  const token = readTag(buffer, line);
  if (token) yield token;
}

function readTag(text: string, line: number): OfxToken | undefined {
  const match = /^<(\/?)([A-Za-z][A-Za-z0-9.]*)\s*>([^<]*)/.exec(text);
  return match
    ? { closing: match[1] === '/', name: match[2].toUpperCase(), text: match[3], line }
    : undefined;
}

function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** OFX amounts use `.`; some banks write `,` as the decimal separator (OFX 1.x allows it). */
function ofxAmount(text: string, line: number): string {
  const value = text.trim().replace(',', '.');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value)) {
    throw new ImportFileError(line, 'TRNAMT', `"${text.trim()}" is not an amount`);
  }
  const normalised = value
    .replace(/^\+/, '')
    .replace(/^(-?)\./, '$10.')
    .replace(/\.$/, '');
  return normalised.replace(/^(-?)0+(?=\d)/, '$1');
}

function rowOf(fields: Map<string, string>, line: number, currency: string | undefined): ParsedRow {
  const posted = fields.get('DTPOSTED') ?? fields.get('DTUSER') ?? '';
  const date = parseDate(posted.slice(0, 8));
  if (!date) throw new ImportFileError(line, 'DTPOSTED', `"${posted}" is not an OFX date (YYYYMMDD…)`);
  const amountText = fields.get('TRNAMT');
  if (!amountText) throw new ImportFileError(line, 'TRNAMT', 'is missing');
  const name = fields.get('NAME') ?? fields.get('PAYEE');
  const memo = fields.get('MEMO');
  const description = [name, memo && memo !== name ? memo : undefined].filter(Boolean).join(' / ');
  // Amounts are in CURRENCY's CURSYM when given; with ORIGCURRENCY they stay in the statement's CURDEF.
  const origCurrency = fields.has('ORIGCURRENCY') ? undefined : fields.get('CURSYM');
  return {
    line,
    date,
    amount: ofxAmount(amountText, line),
    currency: origCurrency ?? currency,
    description: clip(description, 3000),
    tags: [],
    fitid: fields.get('FITID') || undefined,
  };
}

/**
 * Streams the transactions (`STMTTRN`) of an OFX/QFX statement, bank or credit card, 1.x or 2.x. No npm OFX
 * parser streams (ofx-data-extractor, ofx-js and node-ofx-parser each build the whole document in memory),
 * so this small tokenizer does: a 100,000-transaction file stays in flat memory.
 */
export async function* parseOfx(chunks: AsyncIterable<string>): AsyncGenerator<ParsedRow> {
  let currency: string | undefined;
  let current: { fields: Map<string, string>; line: number } | undefined;
  let seenOfx = false;
  for await (const token of ofxTokens(chunks)) {
    if (token.name === 'OFX') seenOfx = true;
    if (token.closing) {
      if (token.name === 'STMTTRN' && current) {
        yield rowOf(current.fields, current.line, currency);
        current = undefined;
      }
      continue;
    }
    const text = decodeEntities(token.text.trim());
    if (token.name === 'CURDEF') currency = text.toUpperCase();
    else if (token.name === 'STMTTRN') {
      if (current) yield rowOf(current.fields, current.line, currency);
      current = { fields: new Map(), line: token.line };
    } else if (current && token.name === 'ORIGCURRENCY') {
      current.fields.set('ORIGCURRENCY', 'yes');
    } else if (current && text) {
      // CURRENCY/ORIGCURRENCY aggregates hold CURSYM; the first value of a name wins (PAYEE holds NAME too).
      if (!current.fields.has(token.name)) current.fields.set(token.name, text);
    }
  }
  if (!seenOfx) throw new ImportFileError(1, '(file)', 'is not an OFX statement (no <OFX> element)');
  if (current) throw new ImportFileError(current.line, 'STMTTRN', 'is not closed (the file is cut short)');
}
