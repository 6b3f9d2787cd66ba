import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hash } from '@node-rs/argon2';
import type { OperationsRole } from '../../../contracts/access.js';
import type { BodyOf } from '../../../contracts/operation.js';
import type { iamVerifySecondFactor } from '../../../contracts/operations/accounts.contract.js';
import type { LoginData, OrganizationData, UserData } from '../../../contracts/operations/iam-types.js';
import type { Logger } from '../../../runtime/logger.js';
import type { PageRequest } from '../../shared/cursor-list.js';
import type { Mailer } from '../../shared/mailer.js';
import { withAfterCommit } from '../core/after-commit.js';
import { cursorList } from '../core/cursor-list.js';
import type { Principal } from '../core/principal.js';
import { OperationsError } from '../operations.errors.js';
import { OrganizationEntity } from '../organizations/organization.entity.js';
import { AppUserEntity } from './app-user.entity.js';
import { RefreshTokenEntity, RevokedAccessTokenEntity } from './session.entity.js';
import { organizationData } from '../organizations/organizations.service.js';
import { ACCOUNT_TOKENS, accountTokens, sha256Hex } from './account-tokens.js';
import type { ClientInfo } from './client.js';
import type { SignInFlow, SignInStep } from './sign-in.js';
import type { SigningKeys } from './signing-keys.js';
import { USER_COLUMNS, userData, type UserRow } from './users.js';

/** Lifetimes of the session tokens. */
export const TOKEN_LIFETIME = { accessSeconds: 15 * 24 * 3600, refreshDays: 30 } as const;

export interface NewUser {
  readonly email: string;
  /** None: the user is invited and sets one from the mailed link. */
  readonly password?: string;
  readonly name: string;
  readonly roles: readonly OperationsRole[];
  readonly objectIds: readonly string[];
  readonly organizationId: string | null;
  readonly superAdmin?: boolean;
}

/** Sign-in with e-mail and password (argon2id), rotating refresh tokens, and users. */
export class IamService {
  constructor(
    private readonly keys: SigningKeys,
    /** For what must commit on its own (a leaked sign-in's revocation). */
    private readonly root: EntityManager,
    readonly signIn: SignInFlow,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
  ) {}

  async login(em: EntityManager, email: string, password: string, client: ClientInfo): Promise<LoginData> {
    return this.complete(em, await this.signIn.password(em, email, password, client));
  }

  async verifySecondFactor(em: EntityManager, input: BodyOf<typeof iamVerifySecondFactor>, client: ClientInfo): Promise<LoginData> {
    return this.complete(em, await this.signIn.secondFactor(em, input.challenge_id, input.method, input.code, client));
  }

  /** A session when the sign-in is done; otherwise the Login response with `user` and `two_factor`, every other field null. */
  async complete(em: EntityManager, step: SignInStep): Promise<LoginData> {
    if (step.kind === 'signed-in') return this.session(em, step.user, randomUUID());
    return {
      access_token: null,
      token_type: null,
      expires_in: null,
      refresh_token: null,
      user: userData(step.user),
      organizations: null,
      two_factor: step.pending,
    };
  }

  /** A new access token and refresh token for a user; `family` groups the refresh tokens of one sign-in. */
  private async session(em: EntityManager, user: UserRow, family: string): Promise<LoginData> {
    const jti = randomUUID();
    // `email` lets the services that verify these tokens name the account without asking operations (e.g. a library key's owner).
    const claims = { org: user.organization_id, roles: user.roles, sa: user.super_admin, email: user.email };
    const accessToken = await this.keys.sign(claims, user.id, jti, TOKEN_LIFETIME.accessSeconds);
    const refreshToken = `rt_${randomBytes(32).toString('base64url')}`;
    em.create(RefreshTokenEntity, {
      userId: user.id,
      familyId: family,
      tokenHash: sha256Hex(refreshToken),
      accessJti: jti,
      expiresAt: new Date(Date.now() + TOKEN_LIFETIME.refreshDays * 86_400_000),
    });
    await em.flush();
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME.accessSeconds,
      refresh_token: refreshToken,
      user: userData(user),
      organizations: await this.organizationsOf(em, user),
      two_factor: null,
    };
  }

  /**
   * Spends a refresh token for a new pair; the access token issued with the spent one is
   * revoked at once (the guard reads the revocation list on every call). A token spent
   * before means it leaked: its whole sign-in is revoked, committed on its own even though
   * the call is refused.
   */
  async refresh(em: EntityManager, token: string): Promise<LoginData> {
    // raw SQL: a refresh token is rotated by one conditional update, so it works once
    const [spent] = await em.execute<Array<{ user_id: string; family_id: string }>>(
      `update "operations"."refresh_token" set "rotated_at" = now()
       where "token_hash" = ? and "rotated_at" is null and "revoked_at" is null and "expires_at" > now()
       returning "user_id", "family_id"`,
      [sha256Hex(token)],
    );
    if (spent) {
      // raw SQL: insert … select … on conflict: the rotated token's access token revoked in one statement
      await em.execute(
        `insert into "operations"."revoked_access_token" ("jti", "expires_at")
         select "access_jti", "created_at" + interval '${TOKEN_LIFETIME.accessSeconds} seconds' from "operations"."refresh_token"
         where "token_hash" = ? on conflict do nothing`,
        [sha256Hex(token)],
      );
    }
    if (!spent) {
      // A rotated token presented again is reuse: its whole family goes.
      const known = await em.findOne(RefreshTokenEntity, { tokenHash: sha256Hex(token) });
      if (!known?.rotatedAt) throw OperationsError.refreshTokenInvalid();
      // Its own transaction: the revocation commits although this call is refused (and rolled back).
      await withAfterCommit(this.root.fork(), this.logger, (own) => this.revokeFamily(own, known.familyId));
      throw OperationsError.refreshTokenReused();
    }
    const account = await this.signIn.account(em, { id: spent.user_id });
    if (!account?.active || account.banned_at) throw OperationsError.refreshTokenInvalid();
    return this.session(em, account, spent.family_id);
  }

  /** Revokes the access token presented and every refresh token of its sign-in. */
  async logout(em: EntityManager, principal: Principal): Promise<{ revoked: boolean }> {
    await em
      .createQueryBuilder(RevokedAccessTokenEntity)
      .insert({ jti: principal.tokenId, expiresAt: principal.tokenExpiresAt })
      .onConflict('jti')
      .ignore()
      .execute();
    const token = await em.findOne(RefreshTokenEntity, { accessJti: principal.tokenId });
    if (token) await this.revokeFamily(em, token.familyId);
    return { revoked: true };
  }

  /** Signs the user out everywhere: every refresh token and every access token issued with one. */
  async revokeAllSessions(em: EntityManager, userId: string): Promise<void> {
    const tokens = await em.find(RefreshTokenEntity, { userId, revokedAt: null }, { orderBy: { createdAt: 'asc' } });
    for (const family of new Set(tokens.map((token) => token.familyId))) await this.revokeFamily(em, family);
  }

  /** The caller's sign-ins whose refresh token is still usable, the current one marked. */
  /** The caller's active sessions (one per refresh-token family), most recently refreshed first, in cursor pages. */
  sessions(em: EntityManager, principal: Principal, page: PageRequest) {
    const iso = (value: unknown) => new Date(value as Date).toISOString();
    return cursorList(
      em,
      {
        // raw SQL: sessions are aggregated per family (min/max/bool_or) in the database
        table: `(select "family_id" as "id", "user_id", min("created_at") as "started_at", max("created_at") as "refreshed_at",
            max("expires_at") filter (where "rotated_at" is null and "revoked_at" is null) as "expires_at",
            string_agg("access_jti"::text, ',') as "access_jtis"
          from "operations"."refresh_token"
          group by "family_id", "user_id"
          having bool_or("rotated_at" is null and "revoked_at" is null and "expires_at" > now()))`,
        owner: { user_id: principal.userId },
        orderBy: 'refreshed_at',
        direction: 'desc',
      },
      page,
      (row) => ({
        id: row.id as string,
        started_at: iso(row.started_at),
        refreshed_at: iso(row.refreshed_at),
        expires_at: iso(row.expires_at),
        current: String(row.access_jtis).split(',').includes(principal.tokenId),
      }),
    );
  }

  /** Signs out one of the caller's sessions; another user's, or one already ended, is not found. */
  async revokeSession(em: EntityManager, principal: Principal, family: string): Promise<{ done: true }> {
    const open = await em.count(RefreshTokenEntity, { familyId: family, userId: principal.userId, revokedAt: null });
    if (open === 0) throw OperationsError.notFound('Session');
    await this.revokeFamily(em, family);
    return { done: true };
  }

  /** Signs out every session of the caller but the current one. */
  async revokeOtherSessions(em: EntityManager, principal: Principal): Promise<{ done: true }> {
    // raw SQL: the other families, by a subquery on the current access token
    const families = await em.execute<Array<{ family_id: string }>>(
      `select distinct "family_id" from "operations"."refresh_token" where "user_id" = ? and "revoked_at" is null
         and "family_id" not in (select "family_id" from "operations"."refresh_token" where "access_jti" = ?::uuid)`,
      [principal.userId, principal.tokenId],
    );
    for (const { family_id } of families) await this.revokeFamily(em, family_id);
    return { done: true };
  }

  private async revokeFamily(em: EntityManager, family: string): Promise<void> {
    // raw SQL: insert … select … on conflict: every access token of the family revoked in one statement
    await em.execute(
      `insert into "operations"."revoked_access_token" ("jti", "expires_at")
       select "access_jti", "created_at" + interval '${TOKEN_LIFETIME.accessSeconds} seconds' from "operations"."refresh_token"
       where "family_id" = ? on conflict do nothing`,
      [family],
    );
    // raw SQL: bulk update of the family's open tokens
    await em.execute(`update "operations"."refresh_token" set "revoked_at" = now() where "family_id" = ? and "revoked_at" is null`, [
      family,
    ]);
  }

  async me(em: EntityManager, principal: Principal): Promise<{ user: UserData; organizations: OrganizationData[] }> {
    const user = await this.user(em, principal.userId);
    if (!user) throw OperationsError.tokenInvalid();
    return { user: userData(user), organizations: await this.organizationsOf(em, user) };
  }

  private async organizationsOf(em: EntityManager, user: UserRow): Promise<OrganizationData[]> {
    if (!user.organization_id) return [];
    const organizations = await em.find(OrganizationEntity, { id: user.organization_id });
    return organizations.map(organizationData);
  }

  async user(em: EntityManager, id: string): Promise<UserRow | undefined> {
    // raw SQL: the user row in the UserRow shape the sign-in flow shares
    const [row] = await em.execute<UserRow[]>(`select ${USER_COLUMNS} from "operations"."app_user" u where u."id" = ?`, [id]);
    return row;
  }

  /** A user of the caller's organization; only the super-admin names another. */
  async createUser(
    em: EntityManager,
    principal: Principal,
    input: Omit<NewUser, 'organizationId'> & { organizationId?: string },
    client: ClientInfo,
  ) {
    const organizationId = principal.superAdmin ? (input.organizationId ?? principal.organizationId) : principal.organizationId;
    if (!principal.superAdmin && input.organizationId && input.organizationId !== principal.organizationId) {
      throw OperationsError.forbidden('An Admin creates users in their own organization only.');
    }
    if (!organizationId) throw OperationsError.organizationRequired();
    const organization = await em.count(OrganizationEntity, { id: organizationId });
    if (organization === 0) throw OperationsError.organizationNotFound();
    const objectIds = [...new Set(input.objectIds)];
    await this.checkObjects(em, organizationId, objectIds);
    const user = await this.insertUser(em, { ...input, objectIds, organizationId });
    if (!input.password) await this.invite(em, user, client);
    return userData(user);
  }

  /** Mails an invited user the link to set their password (7 days). */
  private async invite(em: EntityManager, user: UserRow, client: ClientInfo): Promise<void> {
    const token = await accountTokens.issue(em, user.id, ACCOUNT_TOKENS.invitation);
    await this.mailer.send({
      to: user.email,
      subject: 'You are invited to Qantara',
      text:
        `Hello ${user.name},\n\nYou were invited to Qantara. Set your password to sign in (the link is valid for 7 days):\n` +
        `${client.baseUrl}/set-password?token=${token}\n\nSend the token with your new password to POST ${client.baseUrl}/api/v1/iam/password-set.`,
    });
  }

  /** A user created by an Admin or at first start: verified at once when given a password. */
  async insertUser(em: EntityManager, user: NewUser): Promise<UserRow> {
    // raw SQL: `on conflict (lower(email)) do nothing`: the conflict target is an expression index
    const rows = await em.execute<UserRow[]>(
      `insert into "operations"."app_user" as u ("email", "password_hash", "name", "organization_id", "roles", "object_ids", "super_admin", "email_verified_at")
       values (?, ?, ?, ?, ?::text[], ?::uuid[], ?, case when ? then now() end)
       on conflict (lower("email")) do nothing returning ${USER_COLUMNS}`,
      [
        user.email.trim(),
        user.password ? await hash(user.password) : null,
        user.name,
        user.organizationId,
        `{${user.roles.join(',')}}`,
        `{${user.objectIds.join(',')}}`,
        user.superAdmin ?? false,
        user.password !== undefined,
      ],
    );
    if (!rows[0]) throw OperationsError.emailTaken();
    return rows[0];
  }

  /** Bans or lifts a ban on a user of the caller's organization (any user for the super-admin, never themselves). */
  async setBanned(em: EntityManager, principal: Principal, id: string, banned: boolean): Promise<UserData> {
    // raw SQL: one conditional update (not oneself, same organization unless super-admin), first ban time kept
    const [row] = await em.execute<UserRow[]>(
      `update "operations"."app_user" u set "banned_at" = case when ? then coalesce("banned_at", now()) end, "updated_at" = now()
       where u."id" = ? and u."id" <> ? and (? or u."organization_id" = ?) returning ${USER_COLUMNS}`,
      [banned, id, principal.userId, principal.superAdmin, principal.organizationId],
    );
    if (!row) throw OperationsError.notFound('User');
    if (banned) await this.revokeAllSessions(em, id);
    return userData(row);
  }

  /**
   * Replaces the roles and production objects of a user of the caller's organization; the
   * guard reads them on every request, so the next one of the user's applies them. Objects
   * must be production objects of that organization (read under its row-level security).
   */
  async assignAccess(
    em: EntityManager,
    principal: Principal,
    id: string,
    change: { roles?: readonly OperationsRole[]; objectIds?: readonly string[]; apiAccess?: boolean },
  ): Promise<UserData> {
    const user = principal.organizationId
      ? await em.count(AppUserEntity, { id, organizationId: principal.organizationId, superAdmin: false })
      : 0;
    if (user === 0) throw OperationsError.notFound('User');
    const objectIds = change.objectIds ? [...new Set(change.objectIds)] : undefined;
    if (objectIds) await this.checkObjects(em, principal.organizationId!, objectIds);
    // raw SQL: partial update keeping unset fields (coalesce), returning the UserRow shape
    const [row] = await em.execute<UserRow[]>(
      `update "operations"."app_user" u set "roles" = coalesce(?::text[], "roles"), "object_ids" = coalesce(?::uuid[], "object_ids"),
         "api_access" = coalesce(?::boolean, "api_access"), "updated_at" = now()
       where u."id" = ? returning ${USER_COLUMNS}`,
      [change.roles ? `{${change.roles.join(',')}}` : null, objectIds ? `{${objectIds.join(',')}}` : null, change.apiAccess ?? null, id],
    );
    return userData(row!);
  }

  /**
   * Refuses (422 naming `objectIds`) ids that are not live production objects of the
   * organization: another organization's object is answered like a missing one. The
   * objects are read under that organization's row-level security — for the super-admin
   * creating a user elsewhere, not the organization it acts in — and the setting is put back.
   */
  private async checkObjects(em: EntityManager, organizationId: string, objectIds: readonly string[]): Promise<void> {
    if (objectIds.length === 0) return;
    // raw SQL: switches the tenant setting to read another organization's objects
    const [tenant] = await em.execute<Array<{ previous: string | null }>>(
      `select current_setting('app.organization_id', true) as "previous", set_config('app.organization_id', ?, true)`,
      [organizationId],
    );
    // raw SQL: ids checked in one round trip under that setting
    const found = await em.execute<Array<{ id: string }>>(
      `select "id"::text as "id" from "operations"."production_object" where "id" = any(?::uuid[]) and "organization_id" = ? and "deleted_at" is null`,
      [`{${objectIds.join(',')}}`, organizationId],
    );
    // raw SQL: puts the tenant setting back
    await em.execute(`select set_config('app.organization_id', ?, true)`, [tenant?.previous ?? '']);
    const known = new Set(found.map((row) => row.id.toLowerCase()));
    const unknown = objectIds.filter((objectId) => !known.has(objectId.toLowerCase()));
    if (unknown.length > 0) throw OperationsError.invalid('objectIds', `not production objects of the organization: ${unknown.join(', ')}`);
  }

  listUsers(em: EntityManager, principal: Principal, page: { cursor?: string; limit: number }) {
    return cursorList(em, { table: '"operations"."app_user"', owner: { organization_id: principal.organizationId } }, page, (row) =>
      userData(row as unknown as UserRow),
    );
  }
}
