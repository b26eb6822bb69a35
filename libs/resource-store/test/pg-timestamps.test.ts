import { createDataSource } from '@pfs/resource-store';
import { types } from 'pg';
import type { DataSource } from 'typeorm';
import { parseTimestamptz } from '../src/pg-timestamps';

// postgres-date, as pg registers it for every date type it parses (`date` is never replaced).
const postgresDate = types.getTypeParser(types.builtins.DATE, 'text') as (text: string) => unknown;

let source: DataSource;

beforeAll(async () => {
  source = createDataSource({ url: process.env.DATABASE_URL!, poolSize: 1 });
  await source.initialize();
});
afterAll(() => source.destroy());

/** The server's own text of `count` timestamps spread over 1000-9999, with 0 to 6 fraction digits, in `zone`. */
async function serverTexts(zone: string, count: number): Promise<string[]> {
  const rows: Array<{ text: string }> = await source.transaction(async (manager) => {
    await manager.query(`SET LOCAL TimeZone = '${zone}'`);
    return manager.query(
      `SELECT (timestamptz '1000-01-01 00:00:00+00' + (random() * interval '8999 years')
               + (n % 7) * interval '1 microsecond')::text AS text
       FROM generate_series(1, $1::int) n
       UNION ALL SELECT unnest(ARRAY['2026-11-24 13:07:03.198+00', '2026-11-24 13:07:03+00',
         '2026-11-24 13:07:03.999999+00', '0099-03-01 10:00:00+00', '2000-01-01 00:00:00+00 BC',
         'infinity', '-infinity', '2026-11-24 13:07:03.182579+05:30', '2026-11-24 13:07:03.5-08'])`,
      [count],
    );
  });
  return rows.map((row) => row.text);
}

function same(text: string): void {
  const fast = parseTimestamptz(text);
  const library = postgresDate(text);
  expect({ text, value: fast instanceof Date ? fast.getTime() : fast }).toEqual({
    text,
    value: library instanceof Date ? library.getTime() : library,
  });
}

describe('the fast timestamptz parser', () => {
  it('when the server sends timestamps in UTC, then each reads to the millisecond postgres-date reads', async () => {
    const texts = await serverTexts('UTC', 5_000);
    expect(texts.filter((text) => text.endsWith('+00')).length).toBeGreaterThan(5_000);
    texts.forEach(same);
  });

  it('when the server sends another offset, BC or infinity, then postgres-date reads it, to the same value', async () => {
    (await serverTexts('Asia/Kolkata', 500)).forEach(same);
    (await serverTexts('America/Los_Angeles', 500)).forEach(same);
  });

  it('when the data source reads a timestamptz, then it is the fast parser that pg calls', async () => {
    expect(types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text')).toBe(parseTimestamptz);
    const [row] = await source.query(`SELECT timestamptz '2026-11-24 13:07:03.182579+00' AS at`);
    expect((row.at as Date).toISOString()).toBe('2026-11-24T13:07:03.182Z');
  });
});
