import PDFDocument from 'pdfkit';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ExportTable } from './export-table';

const MARGIN = 36;
const ROW_HEIGHT = 12;
const FONT_SIZE = 7.5;
/** pdfkit pushes without waiting for its reader; above this many buffered bytes we let the reader catch up. */
const MAX_BUFFERED = 2 * 1024 * 1024;

export interface PdfOptions {
  title: string;
}

/** Gives text columns twice the width of the others. */
function columnWidths(table: ExportTable, width: number): number[] {
  const weights = table.columns.map((column) => (column.kind === 'text' ? 2 : 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => (weight / total) * width);
}

/**
 * Streams tables as a printable PDF: landscape A4, one section per table, the header row repeated on
 * every page. Pages are flushed as they fill, so the document is never held whole in memory.
 */
export async function writePdf(tables: ExportTable[], out: Writable, options: PdfOptions): Promise<void> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    info: { Title: options.title },
  });
  doc.pipe(out);
  const done = finished(out);
  const bottom = () => doc.page.height - MARGIN - ROW_HEIGHT;
  doc.fontSize(14).text(options.title, MARGIN, MARGIN);
  let y = doc.y + 6;
  for (const table of tables) {
    const widths = columnWidths(table, doc.page.width - 2 * MARGIN);
    const drawRow = (cells: string[], bold: boolean) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(FONT_SIZE);
      let x = MARGIN;
      cells.forEach((cell, index) => {
        doc.text(cell, x + 1, y, {
          width: widths[index] - 2,
          height: ROW_HEIGHT,
          lineBreak: false,
          ellipsis: true,
        });
        x += widths[index];
      });
      y += ROW_HEIGHT;
    };
    const headers = table.columns.map((column) => column.header);
    if (y > bottom() - 3 * ROW_HEIGHT) {
      doc.addPage();
      y = MARGIN;
    }
    doc.font('Helvetica-Bold').fontSize(11).text(table.title, MARGIN, y);
    y = doc.y + 4;
    drawRow(headers, true);
    for await (const row of table.openRows()) {
      if (y > bottom()) {
        doc.addPage();
        y = MARGIN;
        drawRow(headers, true);
        while (doc.readableLength > MAX_BUFFERED) await new Promise((resolve) => setImmediate(resolve));
      }
      drawRow(
        table.columns.map((column) =>
          row[column.key] === null || row[column.key] === undefined ? '' : String(row[column.key]),
        ),
        false,
      );
    }
    y += ROW_HEIGHT;
  }
  doc.end();
  await done;
}
