import { parseString } from '@fast-csv/parse';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import pdfParse from 'pdf-parse/lib/pdf-parse.js';

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

export async function parsePdf(data: Buffer): Promise<{ pages: number; text: string }> {
  const parsed = await pdfParse(data);
  return { pages: parsed.numpages, text: parsed.text };
}

export async function unzip(data: Buffer): Promise<Record<string, Buffer>> {
  const zip = await JSZip.loadAsync(data);
  const files: Record<string, Buffer> = {};
  for (const name of Object.keys(zip.files)) files[name] = await zip.files[name].async('nodebuffer');
  return files;
}
