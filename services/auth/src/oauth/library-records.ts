import type { Client, User } from '@node-oauth/oauth2-server';
import type { OAuthClientRecord } from '@pfs/resource-store';

/** What the authorize step passes along with the user: the grant the code belongs to. */
export interface AuthorizingUser extends User {
  id: string;
  grantId: string;
  /** Whether the client named redirect_uri, which makes it mandatory at the token step. */
  redirectUriSent: boolean;
}

export function toLibraryClient(client: OAuthClientRecord): Client {
  return {
    id: client.id,
    redirectUris: client.redirectUris,
    grants: client.grants,
    scope: client.scope,
    name: client.name,
  };
}
