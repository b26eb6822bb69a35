import { uniqueEmail } from '@pfs/testing';
import { Client } from 'pg';
import { runCli } from '../../src/run-cli';

describe('pfs user:create --otp', () => {
  it('when two-factor is asked for, then the secret is printed once and stored only encrypted', async () => {
    const out: string[] = [];
    const email = uniqueEmail('cli-otp');
    const code = await runCli(
      ['user:create', '--email', email, '--password', 'correct horse battery', '--otp'],
      { stdout: (text) => out.push(text), stderr: () => undefined },
      process.env,
    );
    expect(code).toBe(0);
    const printed = JSON.parse(out.join('\n'));
    expect(printed.otp_secret).toMatch(/^[A-Z2-7]{32}$/);
    const db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT c.otp_secret, c.otp_enabled_at FROM auth_credentials c JOIN users u ON u.id = c.user_id
          WHERE u.email = $1`,
        [email],
      );
      expect(rows[0].otp_secret).toMatch(/^v1\./);
      expect(rows[0].otp_secret).not.toContain(printed.otp_secret);
      expect(rows[0].otp_enabled_at).not.toBeNull();
    } finally {
      await db.end();
    }
  });
});
