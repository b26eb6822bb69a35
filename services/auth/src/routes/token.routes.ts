import type OAuth2Server from '@node-oauth/oauth2-server';
import { OAuthError } from '@node-oauth/oauth2-server';
import express, { Router } from 'express';
import { newOAuthResponse, sendOAuthResponse, toOAuthRequest } from '../oauth/express-adapter';

/**
 * `POST /oauth2/token`. The library runs the grant; we shape the document as the spec states it:
 * `token_type` is `bearer`, and `scope` appears only when it differs from what the client asked for.
 */
export function tokenRoutes(oauth: OAuth2Server, accessTokenTtlSeconds: number): Router {
  const router = Router();
  router.post('/oauth2/token', express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    const request = toOAuthRequest(req);
    const response = newOAuthResponse();
    try {
      await oauth.token(request, response);
      const body = response.body as Record<string, unknown>;
      body.token_type = 'bearer';
      // The library derives expires_in from the expiry instant and rounds a few milliseconds down.
      if (body.expires_in !== undefined) body.expires_in = accessTokenTtlSeconds;
      const requested = typeof req.body?.scope === 'string' ? req.body.scope : undefined;
      if (requested === undefined || requested === body.scope) delete body.scope;
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
    }
    sendOAuthResponse(res, response);
  });
  return router;
}
