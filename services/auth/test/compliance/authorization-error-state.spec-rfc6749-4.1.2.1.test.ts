import { uniqueEmail } from '@pfs/testing';
import request from 'supertest';
import { approveInBrowser, pkcePair } from '../support/browser-flow';
import { createTestClient, createTestUser, useAuthTestApp } from '../support/auth-test-app';

/**
 * The spec: an error redirect carries "error and state (if sent)"; RFC 6749 §4.1.2.1 (query) and §4.2.2.1
 * (fragment). Every error path of the authorization endpoint, each with a state to get back.
 */
describe('state on every authorization error redirect', () => {
  const auth = useAuthTestApp();
  const { challenge, verifier } = pkcePair();
  const nonAscii = 'état-ünïcode-😀';

  /** The error parameters of a redirect, from the query or (implicit grant) the fragment. */
  function errorParameters(location: URL, inFragment: boolean) {
    if (inFragment) expect(location.search).toBe('');
    return inFragment ? new URLSearchParams(location.hash.slice(1)) : location.searchParams;
  }

  async function authorize(query: string) {
    const answer = await request(auth.app).get(`/oauth2/authorize?${query}`).expect(302);
    return new URL(answer.headers.location);
  }

  const pkce = `code_challenge=${challenge}&code_challenge_method=S256`;
  it.each([
    ['invalid_request', 'response_type missing', '', 'query', false],
    [
      'invalid_request',
      'a parameter repeated',
      'response_type=code&scope=user:r&scope=user:r',
      'query',
      false,
    ],
    ['invalid_request', 'PKCE missing for a public client', 'response_type=code', 'query', true],
    [
      'invalid_request',
      'PKCE plain',
      `response_type=code&code_challenge=${verifier}&code_challenge_method=plain`,
      'query',
      false,
    ],
    [
      'invalid_request',
      'a malformed code_challenge',
      'response_type=code&code_challenge=short&code_challenge_method=S256',
      'query',
      false,
    ],
    [
      'invalid_request',
      'code_challenge_method alone',
      'response_type=code&code_challenge_method=S256',
      'query',
      false,
    ],
    ['invalid_request', 'PKCE with the implicit grant', `response_type=token&${pkce}`, 'fragment', true],
    ['unsupported_response_type', 'response_type=id_token', 'response_type=id_token', 'query', false],
    [
      'unauthorized_client',
      'the implicit grant for a confidential client',
      'response_type=token',
      'fragment',
      false,
    ],
    ['invalid_scope', 'an unknown scope', 'response_type=code&scope=money:all', 'query', false],
    ['invalid_scope', 'another scope than registered', 'response_type=code&scope=user:r', 'query', false],
    [
      'invalid_scope',
      'an unknown scope (implicit grant)',
      'response_type=token&scope=money:all',
      'fragment',
      true,
    ],
  ])(
    'when %s (%s), then the error redirect carries the state',
    async (error, _why, query, where, implicit) => {
      const client = await createTestClient(auth.deps, { implicit: implicit as boolean });
      const location = await authorize(`client_id=${client.client_id}&${query}&state=keep-me%2042`);
      const params = errorParameters(location, where === 'fragment');
      expect(params.get('error')).toBe(error);
      expect(params.get('state')).toBe('keep-me 42');
    },
  );

  it('when state is not printable ASCII, then invalid_request carries that state back', async () => {
    const client = await createTestClient(auth.deps);
    const location = await authorize(
      `client_id=${client.client_id}&response_type=code&state=${encodeURIComponent(nonAscii)}`,
    );
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('state');
    expect(location.searchParams.get('state')).toBe(nonAscii);
  });

  it('when a non-ASCII state is longer than 255 characters, then it comes back cut to 255 characters, in the fragment for the implicit grant', async () => {
    const client = await createTestClient(auth.deps, { implicit: true });
    const long = '😀é'.repeat(200);
    const location = await authorize(
      `client_id=${client.client_id}&response_type=token&state=${encodeURIComponent(long)}`,
    );
    const params = errorParameters(location, true);
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('state')).toBe(Array.from(long).slice(0, 255).join(''));
  });

  it('when state is repeated, then invalid_request carries the first one', async () => {
    const client = await createTestClient(auth.deps);
    const location = await authorize(`client_id=${client.client_id}&response_type=code&state=one&state=two`);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('one');
  });

  it('when no state was sent, then the error redirect has none', async () => {
    const client = await createTestClient(auth.deps);
    const location = await authorize(`client_id=${client.client_id}&response_type=id_token`);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.has('state')).toBe(false);
  });

  it.each([
    ['code', 'query'],
    ['token', 'fragment'],
  ])(
    'when the user denies a response_type=%s request, then access_denied carries the state in the %s',
    async (responseType, where) => {
      const email = uniqueEmail('deny');
      await createTestUser(auth.deps, email);
      const client = await createTestClient(auth.deps, { implicit: true });
      const { location } = await approveInBrowser(auth.app, {
        authorizeQuery: {
          response_type: responseType,
          client_id: client.client_id,
          state: 'no thanks~!',
          ...(responseType === 'code' ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
        },
        email,
        password: 'correct horse battery',
        decision: 'deny',
      });
      const params = errorParameters(location, where === 'fragment');
      expect(params.get('error')).toBe('access_denied');
      expect(params.get('state')).toBe('no thanks~!');
    },
  );
});
