import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BrowserAppConfig {
  authUrl: string;
  apiUrl: string;
  clientId: string;
}

/**
 * A browser app's own scripts, as a public client writes them (RFC 7636 + RFC 6749 §4.1): `/` makes a PKCE
 * verifier and sends the browser to the auth host; `/callback` checks the state, buys tokens with `fetch`
 * (no secret), calls GET /me and prints what its script could read into `#result`.
 */
function startScript(config: BrowserAppConfig, redirectUri: string) {
  return `
const b64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
(async () => {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  const state = b64url(crypto.getRandomValues(new Uint8Array(12)));
  sessionStorage.setItem('pkce', JSON.stringify({ verifier, state }));
  location.href = ${JSON.stringify(config.authUrl)} + '/oauth2/authorize?' + new URLSearchParams({
    response_type: 'code', client_id: ${JSON.stringify(config.clientId)}, redirect_uri: ${JSON.stringify(redirectUri)},
    state, code_challenge: b64url(new Uint8Array(digest)), code_challenge_method: 'S256',
  });
})();`;
}

function callbackScript(config: BrowserAppConfig, redirectUri: string) {
  return `
(async () => {
  const result = {};
  try {
    const params = new URLSearchParams(location.search);
    const saved = JSON.parse(sessionStorage.getItem('pkce'));
    result.stateMatches = params.get('state') === saved.state;
    const tokenAnswer = await fetch(${JSON.stringify(config.authUrl)} + '/oauth2/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code', code: params.get('code'), redirect_uri: ${JSON.stringify(redirectUri)},
        client_id: ${JSON.stringify(config.clientId)}, code_verifier: saved.verifier,
      }),
    });
    result.tokenStatus = tokenAnswer.status;
    const tokens = await tokenAnswer.json();
    result.tokenType = tokens.token_type;
    result.accessToken = tokens.access_token;
    const me = await fetch(${JSON.stringify(config.apiUrl)} + '/me', {
      headers: { Authorization: 'Bearer ' + tokens.access_token, Accept: 'application/json' },
    });
    result.meStatus = me.status;
    result.email = (await me.json()).email;
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'ETag']) result[name] = me.headers.get(name);
  } catch (error) {
    result.error = String(error);
  }
  document.getElementById('result').textContent = JSON.stringify(result);
})();`;
}

/** Serves the app on `host` (another loopback origin than the auth and API hosts). */
export async function startBrowserAppSite(
  host: string,
  config: () => BrowserAppConfig,
): Promise<{ server: Server; origin: string }> {
  let origin = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    const redirectUri = `${origin}/callback`;
    const script =
      path === '/'
        ? startScript(config(), redirectUri)
        : path === '/callback'
          ? callbackScript(config(), redirectUri)
          : '';
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>Budget app</title><pre id="result"></pre><script>${script}</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}
