import { AuthorizationCodeEntity } from './authorization-code.entity';
import { CredentialEntity } from './credential.entity';
import { OAuthClientEntity } from './oauth-client.entity';
import { OAuthGrantEntity } from './oauth-grant.entity';
import { OAuthTokenEntity } from './oauth-token.entity';
import { RecoveryCodeEntity } from './recovery-code.entity';

export {
  AuthorizationCodeEntity,
  CredentialEntity,
  OAuthClientEntity,
  OAuthGrantEntity,
  OAuthTokenEntity,
  RecoveryCodeEntity,
};
export type { TokenKind } from './oauth-token.entity';

export const authEntities = [
  AuthorizationCodeEntity,
  CredentialEntity,
  OAuthClientEntity,
  OAuthGrantEntity,
  OAuthTokenEntity,
  RecoveryCodeEntity,
];
