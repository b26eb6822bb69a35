import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { createTestUser, useAuthTestApp } from '../../../auth/test/support/auth-test-app';
import type { CliIo } from '../../src/cli-context';
import { runCli } from '../../src/run-cli';

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const code = await runCli(argv, io, process.env);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** Registration is open (RFC 7591), so registrations no user ever allowed are pruned by the operator. */
describe('client:prune-registrations', () => {
  const auth = useAuthTestApp();

  async function register(name: string): Promise<string> {
    const answer = await request(auth.app)
      .post('/oauth2/register')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ client_name: name, redirect_uris: ['http://127.0.0.1:40000/cb'] }))
      .expect(201);
    return answer.body.client_id;
  }

  /** Makes the clients look registered 40 days ago (the store has no clock to move). */
  async function age(ids: string[]) {
    await auth.deps.dataSource.query(
      `UPDATE oauth_clients SET created_at = now() - interval '40 days' WHERE id = ANY($1)`,
      [ids],
    );
  }

  it('when self-registered clients are old and unused, then they are deleted; allowed, recent or operator clients stay', async () => {
    const unused = await register('Abandoned assistant');
    const allowed = await register('Used assistant');
    const recent = await register('New assistant');
    const { user } = await createTestUser(auth.deps, uniqueEmail('prune'));
    await auth.deps.repos.grants.create({ userId: user.id, clientId: allowed, scope: 'entries:r' });
    await age([unused, allowed]);

    const result = await cli(['client:prune-registrations']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.client_ids).toContain(unused);
    expect(printed.client_ids).not.toContain(allowed);
    expect(printed.client_ids).not.toContain(recent);
    expect(await auth.deps.repos.clients.findById(unused)).toBeUndefined();
    expect(await auth.deps.repos.clients.findById(allowed)).toBeDefined();
    expect(await auth.deps.repos.clients.findById(recent)).toBeDefined();
  });

  it('when --older-than-days is not a whole number of days, then a usage error naming the flag', async () => {
    const result = await cli(['client:prune-registrations', '--older-than-days', 'soon']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--older-than-days');
  });
});
