import { hashToken } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import { Client } from 'pg';
import { authenticator } from 'otplib';
import { runCli } from '../../src/run-cli';

/** Runs the CLI in-process against the run's database, capturing what it prints. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) }, process.env);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

async function queryOne<T>(sql: string, params: unknown[]): Promise<T> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows[0] as T;
  } finally {
    await client.end();
  }
}

describe('operator CLI', () => {
  it('when migrate runs on a migrated database, then it succeeds and reports nothing applied', async () => {
    const result = await cli('migrate');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ applied: [] });
  });

  it('when user:create gets valid input, then it prints {id, email} and stores an argon2id hash only', async () => {
    const email = uniqueEmail('cli');
    const result = await cli(
      'user:create',
      '--email',
      email,
      '--password',
      'a long passphrase',
      '--first-name',
      'Grace',
      '--currency',
      'USD',
    );
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual({ id: expect.stringMatching(/^\d+$/), email });
    const row = await queryOne<{ password_hash: string; currency: string; first_name: string }>(
      'SELECT c.password_hash, u.currency, u.first_name FROM users u JOIN auth_credentials c ON c.user_id = u.id WHERE u.id = $1',
      [printed.id],
    );
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('a long passphrase');
    expect(row).toMatchObject({ currency: 'USD', first_name: 'Grace' });
  });

  it('when user:create gets --otp, then it prints a base32 secret that generates valid codes', async () => {
    const result = await cli(
      'user:create',
      '--email',
      uniqueEmail('otp'),
      '--password',
      'a long passphrase',
      '--otp',
    );
    expect(result.code).toBe(0);
    const { otp_secret: secret } = JSON.parse(result.stdout);
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(authenticator.check(authenticator.generate(secret), secret)).toBe(true);
  });

  it('when user:create gets a bad email or short password, then exit 2 names each field and rule', async () => {
    const result = await cli('user:create', '--email', 'not-an-email', '--password', 'short');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('email: must be an email address');
    expect(result.stderr).toContain('password: must be at least 8 characters');
  });

  it('when the email is taken, then exit 2 says so', async () => {
    const email = uniqueEmail('dup');
    expect((await cli('user:create', '--email', email, '--password', 'a long passphrase')).code).toBe(0);
    const again = await cli('user:create', '--email', email.toUpperCase(), '--password', 'a long passphrase');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('email: is already registered');
  });

  it('when client:create gets valid input, then it prints the credentials once and stores only the secret hash', async () => {
    const result = await cli(
      'client:create',
      '--name',
      'Budget Buddy',
      '--redirect-uri',
      'https://app.example.test/cb',
      '--scope',
      'user:r entries:rw',
    );
    expect(result.code).toBe(0);
    const client = JSON.parse(result.stdout);
    expect(client).toEqual({
      client_id: expect.any(String),
      client_secret: expect.any(String),
      redirect_uri: 'https://app.example.test/cb',
      scope: 'entries:rw user:r',
    });
    const row = await queryOne<{ secret_hash: string }>(
      'SELECT secret_hash FROM oauth_clients WHERE id = $1',
      [client.client_id],
    );
    expect(row.secret_hash).toBe(hashToken(client.client_secret));
  });

  it('when client:create gets an unknown scope, then exit 2 names the scope rule', async () => {
    const result = await cli(
      'client:create',
      '--name',
      'X',
      '--redirect-uri',
      'https://app.example.test/cb',
      '--scope',
      'user:r money:all',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('scope: must be space-separated scopes among');
  });

  it('when a required flag is missing or unknown, then exit 2 with usage', async () => {
    expect(await cli('client:create', '--name', 'X')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--redirect-uri'),
    });
    expect(await cli('user:create', '--mail', 'x')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage'),
    });
    expect(await cli('frobnicate')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command "frobnicate"'),
    });
  });

  it('when DATABASE_URL is not a URL, then exit 2 names the variable', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['migrate'],
      { stdout: (t) => out.push(t), stderr: (t) => err.push(t) },
      { DATABASE_URL: 'nope' },
    );
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('DATABASE_URL: must be an absolute URL (got "nope")');
  });
});
