import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Adapter, AdapterFactory, AdapterPayload, ClientMetadata } from 'oidc-provider';

/**
 * The engine's storage on PostgreSQL: one table (`operations.oidc_payload`) keyed by the
 * model and the SHA-256 of the id, with the grant id, session uid and user code as indexed
 * columns, the expiry and the time of consumption. Bearer values (codes, opaque tokens,
 * refresh tokens) are their own ids: only their hash is kept, never the value. Clients come
 * from `operations.oidc_client` (registered by the super-admin). Expired rows are purged
 * now and then by whichever instance writes.
 */

/** Models whose id is a bearer value: the id is hashed and left out of the stored payload. */
const BEARER_MODELS = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'ClientCredentials', 'PreAuthorizedCode']);
/** Models revoked with their grant. */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);
/** Purge expired rows once every this many writes. */
const PURGE_EVERY = 200;

const hashOf = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

interface StoredRow {
  payload: AdapterPayload;
  consumed: number | null;
}

export class OidcStore {
  private writes = 0;

  constructor(
    private readonly root: EntityManager,
    private readonly clients: (clientId: string) => Promise<ClientMetadata | undefined>,
  ) {}

  /** The adapter factory for the engine's `adapter` setting. */
  readonly factory: AdapterFactory = (model: string) => (model === 'Client' ? this.clientAdapter() : this.adapter(model));

  private adapter(model: string): Adapter {
    const bearer = BEARER_MODELS.has(model);
    const find = (where: string, value: string) => this.find(model, where, value);
    return {
      upsert: (id, payload, expiresIn) => this.upsert(model, id, payload, expiresIn, bearer),
      find: async (id) => {
        const found = await find(`"id_hash" = ?`, hashOf(id));
        return found && bearer ? { ...found, jti: id } : found;
      },
      findByUid: (uid) => find(`"uid" = ?`, uid),
      findByUserCode: (userCode) => find(`"user_code" = ?`, userCode),
      consume: async (id) => {
        // raw SQL: the OpenID engine's store: consumption is one conditional update, on its own connection
        await this.root
          .fork()
          .execute(
            `update "operations"."oidc_payload" set "consumed_at" = coalesce("consumed_at", now()) where "model" = ? and "id_hash" = ?`,
            [model, hashOf(id)],
          );
      },
      destroy: async (id) => {
        // raw SQL: the OpenID engine's store, on its own connection
        await this.root.fork().execute(`delete from "operations"."oidc_payload" where "model" = ? and "id_hash" = ?`, [model, hashOf(id)]);
      },
      revokeByGrantId: async (grantId) => {
        if (!GRANTABLE.has(model)) return;
        // raw SQL: the OpenID engine's store: every artefact of a grant in one delete
        await this.root.fork().execute(`delete from "operations"."oidc_payload" where "model" = ? and "grant_id" = ?`, [model, grantId]);
      },
    };
  }

  /** Clients are registered over REST, never by the engine: only `find` answers. */
  private clientAdapter(): Adapter {
    const nothing = async () => undefined;
    return {
      find: (id) => this.clients(id),
      upsert: async () => {
        throw new Error('OpenID clients are registered with POST /api/v1/iam/oidc-clients');
      },
      findByUid: nothing,
      findByUserCode: nothing,
      consume: nothing,
      destroy: nothing,
      revokeByGrantId: nothing,
    };
  }

  private async upsert(model: string, id: string, payload: AdapterPayload, expiresIn: number | undefined, bearer: boolean): Promise<void> {
    const stored: AdapterPayload = { ...payload };
    if (bearer) delete stored.jti;
    const ttl = typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? Math.max(0, Math.ceil(expiresIn)) : null;
    // raw SQL: upsert of an engine artefact, its expiry by the database clock
    await this.root.fork().execute(
      `insert into "operations"."oidc_payload" ("model", "id_hash", "payload", "client_id", "grant_id", "uid", "user_code", "expires_at")
       values (?, ?, ?::jsonb, ?, ?, ?, ?, now() + make_interval(secs => ?::int))
       on conflict ("model", "id_hash") do update set "payload" = excluded."payload", "client_id" = excluded."client_id",
         "grant_id" = excluded."grant_id", "uid" = excluded."uid", "user_code" = excluded."user_code", "expires_at" = excluded."expires_at"`,
      [
        model,
        hashOf(id),
        JSON.stringify(stored),
        typeof payload.clientId === 'string' ? payload.clientId.slice(0, 64) : null,
        GRANTABLE.has(model) && typeof payload.grantId === 'string' ? payload.grantId : null,
        typeof payload.uid === 'string' ? payload.uid : null,
        typeof payload.userCode === 'string' ? payload.userCode : null,
        ttl,
      ],
    );
    if ((this.writes = (this.writes + 1) % PURGE_EVERY) === 0) await this.purge();
  }

  private async find(model: string, where: string, value: string): Promise<AdapterPayload | undefined> {
    // raw SQL: expiry compared with the database clock, consumption read as epoch seconds
    const [row] = await this.root.fork().execute<StoredRow[]>(
      `select "payload", extract(epoch from "consumed_at")::bigint as "consumed" from "operations"."oidc_payload"
       where "model" = ? and ${where} and ("expires_at" is null or "expires_at" > now())`,
      [model, value],
    );
    if (!row) return undefined;
    return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
  }

  /** Deletes what has expired (every instance may; the rows are dead either way). */
  async purge(): Promise<void> {
    // raw SQL: bulk delete of expired artefacts
    await this.root.fork().execute(`delete from "operations"."oidc_payload" where "expires_at" < now()`);
  }
}
