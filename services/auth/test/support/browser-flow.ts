import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';

/** A PKCE verifier and its S256 challenge (RFC 7636 §4.1–4.2). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An agent signed in on the auth pages (cookies kept), and the CSRF token of its pages. */
export async function signedInAgent(
  app: Express,
  email: string,
  password: string,
  secondFactor?: () => string,
) {
  const agent = request.agent(app);
  const signIn = await agent.get('/login').expect(200);
  const answer = await agent
    .post('/login')
    .type('form')
    .send({ email, password, csrf_token: inputValue(signIn.text, 'csrf_token') })
    .expect(303);
  if (answer.headers.location === '/login/two-factor') {
    if (!secondFactor) throw new Error('this user has two-factor: pass secondFactor');
    const page = await agent.get('/login/two-factor').expect(200);
    await agent
      .post('/login/two-factor')
      .type('form')
      .send({ csrf_token: inputValue(page.text, 'csrf_token'), code: secondFactor() })
      .expect(303);
  }
  return { agent, csrfToken: inputValue(signIn.text, 'csrf_token')! };
}

/** The full code flow: consent in the "browser", then the code exchange; returns the token document. */
export async function obtainTokens(
  app: Express,
  client: { client_id: string; client_secret: string },
  user: { email: string; password: string },
): Promise<{ access_token: string; refresh_token: string }> {
  const { location } = await approveInBrowser(app, {
    authorizeQuery: { response_type: 'code', client_id: client.client_id },
    ...user,
  });
  const answer = await exchangeCode(app, client, { code: location.searchParams.get('code')! }).expect(200);
  return answer.body;
}

/** Reads a hidden or text input's value out of a page. */
export function inputValue(html: string, name: string): string | undefined {
  const match = new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html);
  return match?.[1]
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/**
 * Walks the pages as a browser would (cookies kept by the agent): authorize → sign in → consent → decision.
 * Returns the final redirect to the client.
 */
export async function approveInBrowser(
  app: Express,
  options: {
    authorizeQuery: Record<string, string>;
    email: string;
    password: string;
    decision?: 'allow' | 'deny';
    /** For two-factor users: gives the code the sign-in step asks for. */
    secondFactor?: () => string;
    /** An agent already signed in: sign-in is skipped. */
    agent?: ReturnType<typeof request.agent>;
  },
): Promise<{ location: URL; agent: ReturnType<typeof request.agent> }> {
  const agent = options.agent ?? request.agent(app);
  const authorizePath = `/oauth2/authorize?${new URLSearchParams(options.authorizeQuery)}`;
  const consent = options.agent
    ? await agent.get(authorizePath).expect(200)
    : await signInThenConsent(agent, authorizePath, options);
  const fields: Record<string, string> = { decision: options.decision ?? 'allow' };
  for (const name of [
    'csrf_token',
    'client_id',
    'response_type',
    'scope',
    'redirect_uri',
    'state',
    'code_challenge',
    'code_challenge_method',
    'resource',
  ]) {
    const value = inputValue(consent.text, name);
    if (value !== undefined) fields[name] = value;
  }
  const decision = await agent.post('/oauth2/authorize').type('form').send(fields).expect(302);
  return { location: new URL(decision.headers.location), agent };
}

async function signInThenConsent(
  agent: ReturnType<typeof request.agent>,
  authorizePath: string,
  options: { email: string; password: string; secondFactor?: () => string },
) {
  const first = await agent.get(authorizePath).expect(302);
  const signIn = await agent.get(first.headers.location).expect(200);
  let next = await agent
    .post('/login')
    .type('form')
    .send({
      email: options.email,
      password: options.password,
      csrf_token: inputValue(signIn.text, 'csrf_token'),
      return_to: inputValue(signIn.text, 'return_to'),
    })
    .expect(303);
  if (next.headers.location === '/login/two-factor') {
    if (!options.secondFactor) throw new Error('this user has two-factor: pass secondFactor');
    const page = await agent.get('/login/two-factor').expect(200);
    next = await agent
      .post('/login/two-factor')
      .type('form')
      .send({ csrf_token: inputValue(page.text, 'csrf_token'), code: options.secondFactor() })
      .expect(303);
  }
  return agent.get(next.headers.location).expect(200);
}

/** Exchanges a code at the token endpoint with HTTP Basic client authentication. */
export function exchangeCode(
  app: Express,
  client: { client_id: string; client_secret: string },
  form: Record<string, string>,
) {
  return request(app)
    .post('/oauth2/token')
    .auth(client.client_id, client.client_secret)
    .type('form')
    .send({ grant_type: 'authorization_code', ...form });
}
