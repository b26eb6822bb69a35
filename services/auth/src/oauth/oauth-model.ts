import {
  InvalidGrantError,
  type AuthorizationCode,
  type AuthorizationCodeModel,
  type RefreshToken,
  type RefreshTokenModel,
  type Token,
} from '@node-oauth/oauth2-server';
import { formatScope, generateToken, hashToken, parseScope } from '@pfs/contracts';
import type { TokenIntrospectionStore } from '../token-introspection.store';
import { revokeGrants } from '../use-cases/revoke-grants.use-case';
import { isClientSecret } from './client-credentials';
import { CodeExchangeParameters, codeExchangeWillPass, scopeGrantable } from './code-exchange-precheck';
import { AuthorizingUser, toLibraryClient } from './library-records';
import { findUsableRefreshToken } from './refresh-token-reuse';
import type { AuthRepositories } from '../auth-repositories';
import type { CodeExchangeState, OAuthClientRecord, RefreshTokenState } from '@pfs/resource-store';

export interface OAuthModelDependencies {
  repos: Pick<AuthRepositories, 'clients' | 'grants' | 'codes' | 'tokens'>;
  introspection: TokenIntrospectionStore;
  /** A rotated refresh token presented again within this many seconds is a retry (see refresh-token-reuse). */
  refreshReuseGraceSeconds: number;
}

/**
 * The client a code or refresh token was issued to, as the library reads it there: it only compares its id with
 * the client that authenticated the request (getClient, which read that client's row a moment before), so
 * reading the row again for each code or refresh token would cost a query and decide nothing more.
 */
const issuedTo = (clientId: string) => ({ id: clientId, grants: [] });

/**
 * What the token route's own checks already read on this request (token-request-checks.ts), so that the
 * library's hooks do not read it again: each read is a Postgres round trip on the grant's path.
 */
export interface TokenRequestFacts {
  /** The client whose credentials were verified on this request (its row as read then). */
  client?: OAuthClientRecord;
  /** The code sent, by hash, with its exchange state as read by the two-factor check (undefined: no such code). */
  code?: { hash: string; state: CodeExchangeState | undefined };
  /** The refresh token sent, by hash, with its state as read with the client (undefined: no such token). */
  refreshToken?: { hash: string; state: RefreshTokenState | undefined };
  /** A code exchange's PKCE verifier and redirect URI as the form sent them. */
  exchange?: CodeExchangeParameters;
  /** The hash of a code or refresh token this request sent, computed once for the request (`hashToken` else). */
  hashOf?: (token: string) => string;
}

/**
 * The user of a refresh token being rotated, or of a code being exchanged: `revokeToken` leaves the rotation, and
 * `revokeAuthorizationCode` the code's use (when nothing after it can fail), to `saveToken`'s statement.
 */
interface RotatingUser extends AuthorizingUser {
  rotatesRefreshHash?: string;
  consumesCodeHash?: string;
}

/**
 * Our implementation of @node-oauth/oauth2-server's model contract (its lib/model.js documents each hook).
 * Every hook delegates to a repository; secrets are looked up by hash and compared in constant time. `facts`:
 * what this request's checks already read (the token route makes one model per request; others pass none).
 */
export function createOAuthModel(
  deps: OAuthModelDependencies,
  facts: TokenRequestFacts = {},
): AuthorizationCodeModel & RefreshTokenModel {
  const hashOf = facts.hashOf ?? hashToken;
  return {
    /** Called by the token endpoint with the Basic credentials, and by authorize with no secret. */
    async getClient(clientId, clientSecret) {
      const known = facts.client?.id === clientId ? facts.client : undefined;
      const client = known ?? (await deps.repos.clients.findById(clientId));
      if (!client) return false;
      if (clientSecret !== null && clientSecret !== undefined) {
        if (!isClientSecret(client, clientSecret, hashOf)) return false;
      }
      return toLibraryClient(client);
    },

    async generateAuthorizationCode() {
      return generateToken();
    },

    async saveAuthorizationCode(code, client, user) {
      const authorizingUser = user as AuthorizingUser;
      await deps.repos.codes.create({
        codeHash: hashToken(code.authorizationCode),
        grantId: authorizingUser.grantId,
        clientId: client.id,
        userId: authorizingUser.id,
        scope: formatScope(code.scope ?? []),
        redirectUri: code.redirectUri,
        redirectUriSent: authorizingUser.redirectUriSent,
        codeChallenge: code.codeChallenge ?? null,
        codeChallengeMethod: code.codeChallengeMethod ?? null,
        expiresAt: code.expiresAt,
      });
      return { ...code, client, user };
    },

    async getAuthorizationCode(authorizationCode) {
      const codeHash = hashOf(authorizationCode);
      const state =
        facts.code?.hash === codeHash ? facts.code.state : await deps.repos.codes.findForExchange(codeHash);
      if (!state) return false;
      const record = state.code;
      if (record.usedAt) {
        // The spec and RFC 6749 §4.1.2: a code used twice revokes every token issued from it.
        const grantIds = await deps.repos.tokens.findGrantIdsByCode(codeHash);
        await revokeGrants(deps, [record.grantId, ...grantIds]);
        return false;
      }
      // The user may have revoked the app (or a reuse revoked the grant) while the code was in flight.
      if (!state.grantActive) return false;
      const code: AuthorizationCode = {
        authorizationCode,
        expiresAt: record.expiresAt,
        // Only a redirect URI the client sent at authorize must be repeated at the token step.
        // (The library typing says string, but its code treats a falsy value as "not required".)
        redirectUri: (record.redirectUriSent ? record.redirectUri : undefined) as string,
        scope: parseScope(record.scope),
        client: issuedTo(record.clientId),
        user: { id: record.userId, grantId: record.grantId },
        codeChallenge: record.codeChallenge ?? undefined,
        codeChallengeMethod: record.codeChallengeMethod ?? undefined,
      };
      return code;
    },

    async revokeAuthorizationCode(code) {
      const codeHash = hashOf(code.authorizationCode);
      // The library consumes the code before its PKCE, redirect and scope steps, so that a failed attempt uses it
      // up. When our own run of those steps says they pass, the code is marked used by the statement that stores
      // the tokens (one round trip less); a concurrent exchange that marked it first makes saveToken refuse.
      const client = facts.client?.id === code.client.id ? facts.client : undefined;
      if (client && facts.exchange && codeExchangeWillPass(code, facts.exchange, client.scope)) {
        (code.user as RotatingUser).consumesCodeHash = codeHash;
        return true;
      }
      return deps.repos.codes.markUsed(codeHash);
    },

    async generateAccessToken() {
      return generateToken();
    },

    async generateRefreshToken() {
      return generateToken();
    },

    async validateScope(_user, client, scope) {
      // The spec: a requested scope must equal the registered one; none requested means the registered one.
      return scopeGrantable(scope, client.scope as string) ? parseScope(client.scope as string) : false;
    },

    async saveToken(token, client, user) {
      const { grantId, rotatesRefreshHash, consumesCodeHash } = user as RotatingUser;
      const scope = formatScope(token.scope ?? []);
      const accessHash = hashToken(token.accessToken);
      const codeHash = token.authorizationCode ? hashOf(token.authorizationCode as string) : null;
      const common = {
        userId: String(user.id),
        clientId: client.id,
        grantId,
        scope,
        authorizationCodeHash: codeHash,
        name: null,
      };
      const refreshHash = token.refreshToken ? hashToken(token.refreshToken) : undefined;
      const accessExpiresAt = token.accessTokenExpiresAt ?? null;
      // A refresh retires the old token in the same statement (a retry within the grace period finds it retired
      // already and gets a new pair, as before); a rotation always issues a new refresh token (alwaysIssueNew…).
      if (rotatesRefreshHash && refreshHash) {
        await deps.repos.tokens.rotatePair(rotatesRefreshHash, new Date(), {
          ...common,
          accessHash,
          accessExpiresAt,
          refreshHash,
        });
      } else if (consumesCodeHash) {
        const stored = await deps.repos.tokens.createForCode(consumesCodeHash, new Date(), {
          ...common,
          authorizationCodeHash: codeHash ?? consumesCodeHash,
          accessHash,
          accessExpiresAt,
          refreshHash: refreshHash ?? null,
        });
        // The library's answer to a code used meanwhile (its revokeAuthorizationCode step).
        if (!stored) throw new InvalidGrantError('Invalid grant: authorization code is invalid');
      } else {
        await deps.repos.tokens.create([
          { ...common, tokenHash: accessHash, kind: 'access', expiresAt: accessExpiresAt },
          ...(refreshHash
            ? [{ ...common, tokenHash: refreshHash, kind: 'refresh' as const, expiresAt: null }]
            : []),
        ]);
      }
      await deps.introspection.putAccessToken(accessHash, {
        userId: String(user.id),
        clientId: client.id,
        scope,
        grantId,
        expiresAt: token.accessTokenExpiresAt ?? new Date(Date.now() + 3_600_000),
      });
      return { ...token, refreshTokenExpiresAt: undefined, client, user } as Token;
    },

    async getAccessToken(accessToken) {
      const record = await deps.repos.tokens.findActiveByHash(hashToken(accessToken), 'access');
      if (!record || !record.clientId) return false;
      const client = await deps.repos.clients.findById(record.clientId);
      if (!client) return false;
      return {
        accessToken,
        accessTokenExpiresAt: record.expiresAt ?? undefined,
        scope: parseScope(record.scope),
        client: toLibraryClient(client),
        user: { id: record.userId, grantId: record.grantId },
      };
    },

    async getRefreshToken(refreshToken) {
      const hash = hashOf(refreshToken);
      const known = facts.refreshToken?.hash === hash ? facts.refreshToken : undefined;
      const record = await findUsableRefreshToken(deps, hash, known);
      if (!record || !record.clientId || !record.grantId) return false;
      const token: RefreshToken = {
        refreshToken,
        scope: parseScope(record.scope),
        client: issuedTo(record.clientId),
        user: { id: record.userId, grantId: record.grantId },
      };
      return token;
    },

    async revokeToken(token) {
      // Refresh rotation: the old refresh token stops working once a new pair is issued. A retry within
      // the grace period finds it already rotated, which is fine. The library calls this just before saveToken
      // (with the same user object), and nothing between them can fail once our checks passed (the scope was
      // checked before the library ran), so the rotation is done by saveToken's statement: one round trip less,
      // and a token is never retired without its successor stored.
      (token.user as RotatingUser).rotatesRefreshHash = hashOf(token.refreshToken);
      return true;
    },
  };
}
