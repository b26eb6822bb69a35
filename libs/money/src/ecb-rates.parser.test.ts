import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { isKnownCurrency } from './currencies';
import { parseEcbRates, RateFileError, ReferenceRate } from './ecb-rates.parser';
import { SHIPPED_RATES_FILE } from './shipped-rates';

async function collect(text: string): Promise<ReferenceRate[]> {
  const rates: ReferenceRate[] = [];
  for await (const day of parseEcbRates(Readable.from([text]))) rates.push(...day);
  return rates;
}

describe('ECB reference-rate parser', () => {
  it('when a file in the ECB shape is read, then N/A cells are skipped and rates kept as exact text', async () => {
    const rates = await collect(
      'Date,USD,JPY,CYP,\n2025-05-09,1.1252,163.36,N/A,\n2008-01-02,1.4718,164.76,0.58527,\n',
    );
    expect(rates).toEqual([
      { date: '2025-05-09', currency: 'USD', rate: '1.1252' },
      { date: '2025-05-09', currency: 'JPY', rate: '163.36' },
      { date: '2008-01-02', currency: 'USD', rate: '1.4718' },
      { date: '2008-01-02', currency: 'JPY', rate: '164.76' },
      { date: '2008-01-02', currency: 'CYP', rate: '0.58527' },
    ]);
  });

  it('when lines end in CRLF or the file has a byte-order mark, then it still reads', async () => {
    const rates = await collect('\uFEFFDate,USD\r\n2025-05-09,1.1252\r\n');
    expect(rates).toEqual([{ date: '2025-05-09', currency: 'USD', rate: '1.1252' }]);
  });

  it.each([
    ['Day,USD\n', 1, /Date/],
    ['Date,usd\n', 1, /currency code/],
    ['Date,USD\n2025-13-45,1.1\n', 2, /not a date/],
    ['Date,USD\n2025-05-09,-1\n', 2, /positive decimal/],
    ['Date,USD\n2025-05-09,abc\n', 2, /positive decimal/],
    ['', 1, /empty/],
  ])('when the file is malformed (%j), then the error names line %d', async (text, line, message) => {
    const error = await collect(text).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateFileError);
    expect((error as RateFileError).line).toBe(line);
    expect((error as Error).message).toMatch(message);
  });

  it('when the shipped history is streamed, then every day and currency parses and is known', async () => {
    let days = 0;
    let rates = 0;
    const currencies = new Set<string>();
    for await (const day of parseEcbRates(createReadStream(SHIPPED_RATES_FILE))) {
      days += 1;
      rates += day.length;
      day.forEach((rate) => currencies.add(rate.currency));
    }
    expect(days).toBe(6747);
    expect(rates).toBeGreaterThan(150_000);
    expect([...currencies].filter((code) => !isKnownCurrency(code))).toEqual([]);
  });
});
