import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClientMetadata } from 'oidc-provider';
import type { ContractInput } from '../../../../contracts/operation.js';
import type { iamCreateOidcClient, OidcScopeName } from '../../../../contracts/operations/oidc-clients.contract.js';
import type { PageRequest } from '../../../shared/cursor-list.js';
import type { SecretBox } from '../../../shared/secret-box.js';
import { entityCursorList } from '../../core/cursor-list.js';
import type { Principal } from '../../core/principal.js';
import { OidcClientError } from './errors.js';
import { OidcClientEntity, OidcPayloadEntity, type OidcClient } from './oidc.entity.js';

/** The grant types every client has: authorization code (with PKCE) and refresh tokens. */
export const CLIENT_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
/** A confidential client's secret starts with this, so a leaked one is recognised in logs and scanners. */
export const CLIENT_SECRET_PREFIX = 'qcs_';

const data = (client: OidcClient) => ({
  client_id: client.clientId,
  name: client.name,
  public: client.public,
  token_endpoint_auth_method: client.public ? ('none' as const) : ('client_secret_basic' as const),
  redirect_uris: client.redirectUris,
  post_logout_redirect_uris: client.postLogoutRedirectUris,
  grant_types: [...CLIENT_GRANT_TYPES],
  scopes: client.scopes,
  created_at: client.createdAt.toISOString(),
});

const textArray = (values: readonly string[]) => `{${values.map((value) => JSON.stringify(value)).join(',')}}`;

/** A client the deployment registers itself (its console): public, its redirect URIs also its post-logout ones. */
export interface FirstPartyClient {
  readonly clientId: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly scopes: readonly OidcScopeName[];
}

export type NewClient = ContractInput<typeof iamCreateOidcClient>;

/**
 * The OpenID provider's clients, registered by the super-admin (docs/adr/0016). A
 * confidential client's secret is generated here, returned once and kept sealed with the
 * secret box (the engine compares it in constant time, so it must be recoverable).
 */
export class OidcClientsService {
  constructor(private readonly box: SecretBox) {}

  list(em: EntityManager, page: PageRequest) {
    return entityCursorList(em, { entity: OidcClientEntity, orderBy: 'createdAt' }, page, data);
  }

  async get(em: EntityManager, clientId: string) {
    const client = await em.findOne(OidcClientEntity, { clientId });
    if (!client) throw OidcClientError.notFound();
    return data(client);
  }

  async create(em: EntityManager, caller: Principal, input: NewClient) {
    const clientId = randomBytes(16).toString('base64url');
    const secret = input.public ? null : `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const client = em.create(OidcClientEntity, {
      clientId,
      name: input.name,
      public: input.public,
      clientSecret: secret === null ? null : this.box.seal(secret),
      redirectUris: [...new Set(input.redirect_uris)],
      postLogoutRedirectUris: [...new Set(input.post_logout_redirect_uris)],
      scopes: [...new Set(input.scopes)],
      createdBy: caller.userId,
    });
    await em.flush();
    return { ...data(client), client_secret: secret };
  }

  /**
   * Registers a first-party public client of this deployment (the console) or brings its
   * addresses up to date, so it exists whatever an admin did; unchanged, nothing is written.
   */
  async ensurePublic(em: EntityManager, client: FirstPartyClient): Promise<void> {
    // raw SQL: one conditional upsert (`on conflict … do update … where distinct`), so an unchanged client writes nothing.
    await em.execute(
      `insert into "operations"."oidc_client" ("client_id", "name", "public", "redirect_uris", "post_logout_redirect_uris", "scopes")
       values (?, ?, true, ?::text[], ?::text[], ?::text[])
       on conflict ("client_id") do update set "name" = excluded."name", "public" = true, "client_secret" = null,
         "redirect_uris" = excluded."redirect_uris", "post_logout_redirect_uris" = excluded."post_logout_redirect_uris",
         "scopes" = excluded."scopes"
       where ("oidc_client"."name", "oidc_client"."public", "oidc_client"."redirect_uris", "oidc_client"."post_logout_redirect_uris",
              "oidc_client"."scopes") is distinct from
             (excluded."name", excluded."public", excluded."redirect_uris", excluded."post_logout_redirect_uris", excluded."scopes")`,
      [client.clientId, client.name, textArray(client.redirectUris), textArray(client.redirectUris), textArray(client.scopes)],
    );
  }

  /** Removes the client and everything the engine keeps for it (grants, codes, refresh tokens). */
  async remove(em: EntityManager, clientId: string) {
    const client = await em.findOne(OidcClientEntity, { clientId });
    if (!client) throw OidcClientError.notFound();
    em.remove(client);
    await em.flush();
    await em.nativeDelete(OidcPayloadEntity, { clientId });
    return data(client);
  }

  /** The client as the engine reads it (its adapter's `Client` model), secret unsealed. */
  async metadata(em: EntityManager, clientId: string): Promise<ClientMetadata | undefined> {
    const client = await em.findOne(OidcClientEntity, { clientId });
    if (!client) return undefined;
    return {
      client_id: client.clientId,
      client_name: client.name,
      application_type: 'web',
      redirect_uris: client.redirectUris,
      post_logout_redirect_uris: client.postLogoutRedirectUris,
      grant_types: [...CLIENT_GRANT_TYPES],
      response_types: ['code'],
      scope: client.scopes.join(' '),
      ...(client.public
        ? { token_endpoint_auth_method: 'none' }
        : { token_endpoint_auth_method: 'client_secret_basic', client_secret: this.box.unseal(client.clientSecret!) }),
    };
  }
}
