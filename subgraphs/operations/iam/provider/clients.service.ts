import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClientMetadata } from 'oidc-provider';
import type { ContractInput } from '../../../../contracts/operation.js';
import type { iamCreateOidcClient, OidcScopeName } from '../../../../contracts/operations/oidc-clients.contract.js';
import type { SecretBox } from '../../../shared/secret-box.js';
import type { Principal } from '../../core/principal.js';
import { OidcClientError } from './errors.js';

/** The grant types every client has: authorization code (with PKCE) and refresh tokens. */
export const CLIENT_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
/** A confidential client's secret starts with this, so a leaked one is recognised in logs and scanners. */
export const CLIENT_SECRET_PREFIX = 'qcs_';

interface ClientRow {
  client_id: string;
  name: string;
  public: boolean;
  client_secret: string | null;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  scopes: OidcScopeName[];
  created_at: Date;
}

const COLUMNS = `"client_id", "name", "public", "client_secret", "redirect_uris", "post_logout_redirect_uris", "scopes", "created_at"`;

const data = (row: ClientRow) => ({
  client_id: row.client_id,
  name: row.name,
  public: row.public,
  token_endpoint_auth_method: row.public ? ('none' as const) : ('client_secret_basic' as const),
  redirect_uris: row.redirect_uris,
  post_logout_redirect_uris: row.post_logout_redirect_uris,
  grant_types: [...CLIENT_GRANT_TYPES],
  scopes: row.scopes,
  created_at: new Date(row.created_at).toISOString(),
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

  async list(em: EntityManager) {
    const rows = await em.execute<ClientRow[]>(`select ${COLUMNS} from "operations"."oidc_client" order by "created_at", "client_id"`);
    return { items: rows.map(data) };
  }

  async get(em: EntityManager, clientId: string) {
    const [row] = await em.execute<ClientRow[]>(`select ${COLUMNS} from "operations"."oidc_client" where "client_id" = ?`, [clientId]);
    if (!row) throw OidcClientError.notFound();
    return data(row);
  }

  async create(em: EntityManager, caller: Principal, input: NewClient) {
    const clientId = randomBytes(16).toString('base64url');
    const secret = input.public ? null : `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [row] = await em.execute<ClientRow[]>(
      `insert into "operations"."oidc_client"
         ("client_id", "name", "public", "client_secret", "redirect_uris", "post_logout_redirect_uris", "scopes", "created_by")
       values (?, ?, ?, ?, ?::text[], ?::text[], ?::text[], ?) returning ${COLUMNS}`,
      [
        clientId,
        input.name,
        input.public,
        secret === null ? null : this.box.seal(secret),
        textArray([...new Set(input.redirect_uris)]),
        textArray([...new Set(input.post_logout_redirect_uris)]),
        textArray([...new Set(input.scopes)]),
        caller.userId,
      ],
    );
    return { ...data(row!), client_secret: secret };
  }

  /**
   * Registers a first-party public client of this deployment (the console) or brings its
   * addresses up to date, so it exists whatever an admin did; unchanged, nothing is written.
   */
  async ensurePublic(em: EntityManager, client: FirstPartyClient): Promise<void> {
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
    const [row] = await em.execute<ClientRow[]>(`delete from "operations"."oidc_client" where "client_id" = ? returning ${COLUMNS}`, [
      clientId,
    ]);
    if (!row) throw OidcClientError.notFound();
    await em.execute(`delete from "operations"."oidc_payload" where "client_id" = ?`, [clientId]);
    return data(row);
  }

  /** The client as the engine reads it (its adapter's `Client` model), secret unsealed. */
  async metadata(em: EntityManager, clientId: string): Promise<ClientMetadata | undefined> {
    const [row] = await em.execute<ClientRow[]>(`select ${COLUMNS} from "operations"."oidc_client" where "client_id" = ?`, [clientId]);
    if (!row) return undefined;
    return {
      client_id: row.client_id,
      client_name: row.name,
      application_type: 'web',
      redirect_uris: row.redirect_uris,
      post_logout_redirect_uris: row.post_logout_redirect_uris,
      grant_types: [...CLIENT_GRANT_TYPES],
      response_types: ['code'],
      scope: row.scopes.join(' '),
      ...(row.public
        ? { token_endpoint_auth_method: 'none' }
        : { token_endpoint_auth_method: 'client_secret_basic', client_secret: this.box.unseal(row.client_secret!) }),
    };
  }
}
