/* global fetch, Headers -- Node 20 has them */
// A real third-party OAuth client (oauth4webapi, ESM-only, so it runs in its own Node process; Jest here
// is CommonJS). It exchanges a code, refreshes, and revokes the way the library always does: client_id and
// client_secret form-urlencoded inside HTTP Basic (RFC 6749 §2.3.1). Input: one JSON argument; output: one
// JSON line with what the server answered.
import * as oauth from 'oauth4webapi';

const input = JSON.parse(process.argv[2]);
const as = {
  issuer: input.issuer,
  token_endpoint: `${input.issuer}/oauth2/token`,
  revocation_endpoint: `${input.issuer}/oauth2/revoke`,
};
const client = { client_id: input.clientId };
const authentication = oauth.ClientSecretBasic(input.clientSecret);
// Records the Authorization headers the library sends, so the test sees the encoding it chose.
const authorizations = [];
const options = {
  [oauth.allowInsecureRequests]: true,
  [oauth.customFetch]: (url, init) => {
    authorizations.push(new Headers(init.headers).get('authorization'));
    return fetch(url, init);
  },
};

const callback = oauth.validateAuthResponse(as, client, new URL(input.callbackUrl), input.state);
const exchanged = await oauth.processAuthorizationCodeResponse(
  as,
  client,
  await oauth.authorizationCodeGrantRequest(
    as,
    client,
    authentication,
    callback,
    input.redirectUri,
    oauth.nopkce,
    options,
  ),
);
const refreshed = await oauth.processRefreshTokenResponse(
  as,
  client,
  await oauth.refreshTokenGrantRequest(as, client, authentication, exchanged.refresh_token, options),
);
// The library's processRevocationResponse wants RFC 7009's 200; the spec's answer is 204, read it as sent.
const revoked = await oauth.revocationRequest(as, client, authentication, refreshed.refresh_token, options);
process.stdout.write(
  `${JSON.stringify({ exchanged, refreshed, revokeStatus: revoked.status, authorizations })}\n`,
);
