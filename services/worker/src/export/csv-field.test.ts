import { writeToBuffer } from '@fast-csv/format';
import { csvField } from './csv-field';

/** What @fast-csv/format (default options, as the CSV export used it) writes for one field. */
async function fastCsvField(text: string): Promise<string> {
  return (await writeToBuffer([[text]], { rowDelimiter: '\r\n' })).toString('utf8');
}

describe('a CSV field', () => {
  it('when it holds quotes, separators, line breaks, pipes or NUL, then it is written as @fast-csv/format wrote it', async () => {
    const fields = [
      '',
      'plain',
      'a,b',
      'say "hi"',
      'two\r\nlines',
      'cr\r',
      'lf\n',
      'a|b',
      'nul\0here',
      '"',
      '\0',
      ' ;\t',
    ];
    const alphabet = ['a', ',', '"', '\r', '\n', '|', '\0', ';', '\t', 'é', ' '];
    for (let i = 0; i < 500; i += 1) {
      fields.push(
        Array.from({ length: i % 7 }, (_, j) => alphabet[(i * 7 + j * 3) % alphabet.length]).join(''),
      );
    }
    for (const field of fields) expect(csvField(field)).toBe(await fastCsvField(field));
  });
});
