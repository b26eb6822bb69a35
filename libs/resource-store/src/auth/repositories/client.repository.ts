import { DataSource } from 'typeorm';
import { OAuthClientEntity } from '../entities';

export interface OAuthClientRecord {
  id: string;
  name: string;
  /** SHA-256 of the secret; empty for a public client registered dynamically, which has none. */
  secretHash: string;
  /** The default redirect URI: the first registered. */
  redirectUri: string;
  /** Every redirect URI the client may name (the default first). */
  redirectUris: string[];
  scope: string;
  grants: string[];
  /** RFC 7591: `none` for a public client (no secret, PKCE required), else client_secret_basic. */
  tokenEndpointAuthMethod: 'client_secret_basic' | 'none';
}

/** What registering a client stores; a client of the CLI or the developer page has one redirect URI. */
export type NewOAuthClient = Omit<OAuthClientRecord, 'redirectUris' | 'tokenEndpointAuthMethod'> &
  Partial<Pick<OAuthClientRecord, 'redirectUris' | 'tokenEndpointAuthMethod'>> & {
    ownerUserId?: string | null;
  };

function toRecord(entity: OAuthClientEntity): OAuthClientRecord {
  const { id, name, secretHash, redirectUri, redirectUris, scope, grants } = entity;
  return {
    id,
    name,
    secretHash,
    redirectUri,
    redirectUris: redirectUris.length > 0 ? redirectUris : [redirectUri],
    scope,
    grants,
    tokenEndpointAuthMethod: entity.tokenEndpointAuthMethod === 'none' ? 'none' : 'client_secret_basic',
  };
}

/** A registered application as the operator lists it (the secret hash never leaves the store here). */
export interface RegisteredClient {
  id: string;
  name: string;
  redirectUri: string;
  scope: string;
  grants: string[];
  createdAt: Date;
}

export class ClientRepository {
  constructor(private readonly source: DataSource) {}

  async findById(id: string): Promise<OAuthClientRecord | undefined> {
    const entity = await this.source.getRepository(OAuthClientEntity).findOneBy({ id });
    return entity ? toRecord(entity) : undefined;
  }

  async create(client: NewOAuthClient): Promise<void> {
    await this.source.getRepository(OAuthClientEntity).insert({
      ...client,
      redirectUris: client.redirectUris ?? [],
      tokenEndpointAuthMethod: client.tokenEndpointAuthMethod ?? 'client_secret_basic',
      ownerUserId: client.ownerUserId ?? null,
    });
  }

  /** The applications a developer registered through the developer page. */
  async listByOwner(ownerUserId: string): Promise<OAuthClientRecord[]> {
    const entities = await this.source
      .getRepository(OAuthClientEntity)
      .find({ where: { ownerUserId }, order: { createdAt: 'ASC' } });
    return entities.map(toRecord);
  }

  /** Every registered application, oldest first. */
  async listAll(): Promise<RegisteredClient[]> {
    const entities = await this.source
      .getRepository(OAuthClientEntity)
      .find({ order: { createdAt: 'ASC', id: 'ASC' } });
    return entities.map(({ id, name, redirectUri, scope, grants, createdAt }) => ({
      id,
      name,
      redirectUri,
      scope,
      grants,
      createdAt,
    }));
  }

  /**
   * Deletes the clients registered dynamically (RFC 7591, `none`) before `createdBefore` that no user ever
   * let in (no grant, revoked or not): registration is open, so abandoned ones would pile up. Their ids.
   */
  async deleteUnusedDynamic(createdBefore: Date): Promise<string[]> {
    const result = await this.source
      .createQueryBuilder()
      .delete()
      .from(OAuthClientEntity)
      .where(`token_endpoint_auth_method = 'none'`)
      .andWhere('created_at < :createdBefore', { createdBefore })
      .andWhere('NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id)')
      .returning(['id'])
      .execute();
    return (result.raw as Array<{ id: string }>).map((row) => row.id).sort();
  }

  /** Deletes the application (its grants, codes and tokens cascade); false when there was none. */
  async delete(id: string): Promise<boolean> {
    const result = await this.source.getRepository(OAuthClientEntity).delete({ id });
    return (result.affected ?? 0) > 0;
  }
}
