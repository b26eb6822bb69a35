import { parseString } from '@fast-csv/parse';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { inflateSync } from 'node:zlib';

/** Parses CSV text (BOM stripped) into rows of strings, header first. */
export function parseCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString(text.replace(/^\uFEFF/, ''), { headers: false })
      .on('data', (row: string[]) => rows.push(row))
      .on('error', reject)
      .on('end', () => resolve(rows));
  });
}

/** Every worksheet of a workbook as rows of cell values (header first). */
export async function parseXlsx(data: Buffer): Promise<Record<string, unknown[][]>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  const sheets: Record<string, unknown[][]> = {};
  workbook.eachSheet((sheet) => {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    sheets[sheet.name] = rows;
  });
  return sheets;
}

/**
 * The text and page count of a PDF pdfkit wrote: each content stream is inflated and the hex strings of
 * its TJ operators decoded (one line per TJ). Simple and exact for our own files, unlike general PDF
 * parsers; it also proves the streams and the page tree are well formed.
 */
export async function parsePdf(data: Buffer): Promise<{ pages: number; text: string }> {
  const raw = data.toString('latin1');
  if (!raw.startsWith('%PDF-') || !raw.trimEnd().endsWith('%%EOF')) throw new Error('not a complete PDF');
  const lines: string[] = [];
  // Each stream is cut by its dictionary's /Length: a compressed stream may itself end in \r or \n, so
  // searching for the `endstream` keyword would cut a byte off (an intermittent "unexpected end of file").
  for (const match of raw.matchAll(/\/Length (\d+)\b[^>]*>>\s*stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const body = raw.slice(start, start + Number(match[1]));
    const content = inflateSync(Buffer.from(body, 'latin1')).toString('latin1');
    for (const tj of content.matchAll(/\[([^\]]*)\] TJ/g)) {
      const hex = [...tj[1].matchAll(/<([0-9a-f]*)>/g)].map((part) => part[1]).join('');
      lines.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return { pages: (raw.match(/\/Type \/Page\n/g) ?? []).length, text: lines.join('\n') };
}

export async function unzip(data: Buffer): Promise<Record<string, Buffer>> {
  const zip = await JSZip.loadAsync(data);
  const files: Record<string, Buffer> = {};
  for (const name of Object.keys(zip.files)) files[name] = await zip.files[name].async('nodebuffer');
  return files;
}
