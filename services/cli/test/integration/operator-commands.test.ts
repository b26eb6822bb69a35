import { accessTokenKey, hashToken } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { obtainTokens } from '../../../auth/test/support/browser-flow';
import { useAuthTestApp } from '../../../auth/test/support/auth-test-app';
import type { CliIo } from '../../src/cli-context';
import { runCli } from '../../src/run-cli';

/** Runs the CLI in-process against the run's database and Redis prefix, capturing what it prints. */
async function cli(argv: string[], stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  if (stdin !== undefined) io.readStdin = async () => stdin;
  const code = await runCli(argv, io, process.env);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const COMMANDS = [
  'user:reset-password',
  'user:disable-otp',
  'client:delete',
  'user:delete',
  'migrate',
  'user:create',
  'user:list',
  'client:create',
  'client:list',
  'client:prune-registrations',
  'token:revoke-all',
  'rates:import',
];

describe('operator CLI: help, flags as typed, stdin password', () => {
  it('when --help is asked of the CLI, then it lists every command and exits 0', async () => {
    const result = await cli(['--help']);
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toContain(`  ${command}`);
  });

  it.each(COMMANDS)(
    "when %s --help is asked, then it prints that command's usage without touching anything",
    async (command) => {
      const result = await cli([command, '--help'], undefined);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^usage: npm run --silent pfs -- ${command}`));
    },
  );

  it('when a field is invalid, then the error names the flag as the operator typed it', async () => {
    const result = await cli([
      'client:create',
      '--name',
      'X',
      '--redirect-uri',
      'not a uri',
      '--scope',
      'user:r',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--redirect-uri: /);
  });

  it('when an unknown flag is given, then exit 2 names it and shows the command usage', async () => {
    const result = await cli(['user:list', '--colour', 'red']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'--colour'");
    expect(result.stderr).toContain('usage: npm run --silent pfs -- user:list');
  });

  it('when the password comes on standard input, then the user is created with it and can sign in', async () => {
    const email = uniqueEmail('stdin');
    const created = await cli(
      ['user:create', '--email', email, '--password-stdin'],
      'a passphrase from stdin\n',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const listed = await cli(['user:list', '--email-contains', email]);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ id: JSON.parse(created.stdout).id, email, otp: false }),
    ]);
    const both = await cli(
      ['user:create', '--email', uniqueEmail(), '--password', 'x', '--password-stdin'],
      'y',
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--password and --password-stdin exclude each other');
  });
});

describe('operator CLI: client:list and token:revoke-all', () => {
  const auth = useAuthTestApp();

  it('when a user has live tokens, then token:revoke-all ends them at once for the API and for refresh', async () => {
    const email = uniqueEmail('revoke');
    const password = 'correct horse battery';
    const user = JSON.parse((await cli(['user:create', '--email', email, '--password', password])).stdout);
    const client = JSON.parse(
      (
        await cli([
          'client:create',
          '--name',
          'Revoked app',
          '--redirect-uri',
          'https://app.example.test/cb',
          '--scope',
          'user:r',
        ])
      ).stdout,
    );
    const listed = JSON.parse((await cli(['client:list'])).stdout) as Array<Record<string, unknown>>;
    expect(listed).toContainEqual(
      expect.objectContaining({ client_id: client.client_id, name: 'Revoked app' }),
    );
    expect(JSON.stringify(listed)).not.toContain(client.client_secret);

    const tokens = await obtainTokens(auth.app, client, { email, password });
    // The auth service's own client: same server and key prefix as the CLI's.
    const redis = auth.deps.redis;
    {
      expect(await redis.exists(accessTokenKey(hashToken(tokens.access_token)))).toBe(1);
      const revoked = await cli(['token:revoke-all', '--user', user.id]);
      expect(revoked.code).toBe(0);
      const summary = JSON.parse(revoked.stdout);
      expect(summary.user_id).toBe(user.id);
      expect(summary.revoked_grants).toBeGreaterThan(0);
      expect(summary.revoked_tokens).toBeGreaterThanOrEqual(2);
      expect(await redis.exists(accessTokenKey(hashToken(tokens.access_token)))).toBe(0);
      const refreshed = await request(auth.app)
        .post('/oauth2/token')
        .auth(client.client_id, client.client_secret)
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
        .expect(400);
      expect(refreshed.body.error).toBe('invalid_grant');
    }
  });

  it('when token:revoke-all gets no user id, then exit 2 names --user', async () => {
    const result = await cli(['token:revoke-all', '--user', 'ada']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--user: must be a user id');
  });

  async function newClient(name: string) {
    const created = await cli([
      'client:create',
      '--name',
      name,
      '--redirect-uri',
      'https://app.example.test/cb',
      '--scope',
      'user:r',
    ]);
    return JSON.parse(created.stdout) as { client_id: string; client_secret: string };
  }

  it('when user:reset-password gets a new password on stdin, then it signs in with it and the old tokens end', async () => {
    const email = uniqueEmail('reset');
    const user = JSON.parse(
      (await cli(['user:create', '--email', email, '--password', 'the old passphrase'])).stdout,
    );
    const client = await newClient('Reset app');
    const before = await obtainTokens(auth.app, client, { email, password: 'the old passphrase' });
    const reset = await cli(
      ['user:reset-password', '--user', user.id, '--password-stdin'],
      'the new passphrase\n',
    );
    expect(reset.code).toBe(0);
    expect(await auth.deps.redis.exists(accessTokenKey(hashToken(before.access_token)))).toBe(0);
    const after = await obtainTokens(auth.app, client, { email, password: 'the new passphrase' });
    expect(after.access_token).toEqual(expect.any(String));
    const unknown = await cli(['user:reset-password', '--user', '999999999', '--password', 'long enough']);
    expect(unknown).toMatchObject({ code: 2, stderr: '--user: no user 999999999' });
  });

  it('when user:disable-otp runs, then two-factor is off for that user', async () => {
    const email = uniqueEmail('otp');
    const user = JSON.parse(
      (await cli(['user:create', '--email', email, '--password', 'long enough', '--otp'])).stdout,
    );
    const otpOf = async () => JSON.parse((await cli(['user:list', '--email-contains', email])).stdout)[0].otp;
    expect(await otpOf()).toBe(true);
    expect((await cli(['user:disable-otp', '--user', user.id])).code).toBe(0);
    expect(await otpOf()).toBe(false);
  });

  it('when client:delete runs, then the application is gone and its tokens stop working at once', async () => {
    const email = uniqueEmail('clientdel');
    await cli(['user:create', '--email', email, '--password', 'long enough']);
    const client = await newClient('Doomed app');
    const tokens = await obtainTokens(auth.app, client, { email, password: 'long enough' });
    const deleted = await cli(['client:delete', '--client', client.client_id]);
    expect(deleted).toMatchObject({ code: 0, stderr: '' }); // the stderr shows in the diff if it fails
    expect(JSON.parse(deleted.stdout)).toMatchObject({ client_id: client.client_id, deleted: true });
    expect(await auth.deps.redis.exists(accessTokenKey(hashToken(tokens.access_token)))).toBe(0);
    expect((await cli(['client:list'])).stdout).not.toContain(client.client_id);
    const again = await cli(['client:delete', '--client', client.client_id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--client: no client');
  });
});
