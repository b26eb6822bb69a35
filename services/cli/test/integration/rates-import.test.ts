import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runCli } from '../../src/run-cli';

async function runCapturing(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) }, process.env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function queryRates(sql: string, params: unknown[] = []) {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('pfs rates:import', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pfs-rates-'));
  });

  it('when a file in the ECB format is given, then its rates are stored exactly and counted', async () => {
    // Values copied from the shipped ECB file (1999-01-04..05), so sharing the run's database with other tests is harmless.
    const file = join(dir, 'rates.csv');
    await writeFile(
      file,
      'Date,USD,JPY,CYP,\n1999-01-05,1.1790,130.96,0.5823,\n1999-01-04,1.1789,133.73,0.58231,\n',
    );
    const result = await runCapturing(['rates:import', '--file', file]);
    expect(result).toMatchObject({ code: 0 });
    expect(JSON.parse(result.out)).toEqual({ file, days: 2, rates: 6 });
    const rows = await queryRates(
      `SELECT currency, to_char(date,'YYYY-MM-DD') AS date, rate::text FROM currency_rates
       WHERE date <= '1999-01-05' AND currency IN ('USD','CYP') ORDER BY currency, date`,
    );
    expect(rows).toEqual([
      { currency: 'CYP', date: '1999-01-04', rate: '0.5823100000' },
      { currency: 'CYP', date: '1999-01-05', rate: '0.5823000000' },
      { currency: 'USD', date: '1999-01-04', rate: '1.1789000000' },
      { currency: 'USD', date: '1999-01-05', rate: '1.1790000000' },
    ]);
  });

  it('when the file is malformed, then the command fails naming the line and stores nothing from it', async () => {
    const file = join(dir, 'bad.csv');
    // 1999-01-09 was a Saturday: the ECB published nothing that day, so a stored row could only come from here.
    await writeFile(file, 'Date,USD\n1999-01-09,1.1743\n1999-01-10,oops\n');
    const result = await runCapturing(['rates:import', '--file', file]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('line 3');
    const rows = await queryRates(`SELECT 1 FROM currency_rates WHERE date = '1999-01-09'`);
    expect(rows).toEqual([]);
  });

  it('when the file does not exist, then it is a usage error', async () => {
    const result = await runCapturing(['rates:import', '--file', join(dir, 'missing.csv')]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('cannot read');
  });
});
