import type { OperationsAccess, OperationsRole } from '../../../contracts/access.js';
import type { OperationContract } from '../../../contracts/operation.js';
import type { SubgraphContext } from '../../shared/context.js';
import type { Guard } from '../../shared/contracts/implementation.js';
import type { ApiKeyAccess } from './api-key-access.js';
import type { SigningKeys } from './signing-keys.js';
import { OperationsError } from '../operations.errors.js';
import type { Principal } from '../core/principal.js';
import type { RoleGrant, SystemRoleBook } from '../core/system-roles.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface CallerRow {
  id: string;
  organization_id: string | null;
  roles: OperationsRole[];
  object_ids: string[];
  super_admin: boolean;
  active: boolean;
  revoked: boolean;
  organization_exists: boolean;
}

/**
 * The guard of every operations operation (`members(…)` in its contract): a valid
 * access token — or a business `X-API-Key` with the scope the operation needs; the
 * user (the key's owner), their roles and objects read on every call (so a change or a
 * sign-out applies at once); a role whose system role (the organization's book) holds the
 * operation among its permissions (403 otherwise); the organization the call acts in;
 * and, for roles the book scopes by object, the production objects it is limited to.
 * Invalid input is refused after the same checks.
 */
export class OperationsGuard implements Guard<OperationsAccess> {
  constructor(
    private readonly keys: SigningKeys,
    private readonly apiKeys: ApiKeyAccess,
    private readonly systemRoles: SystemRoleBook,
  ) {}

  async admit(ctx: SubgraphContext, access: OperationsAccess, contract: OperationContract): Promise<Principal> {
    const token = /^Bearer\s+(\S+)$/i.exec(ctx.headers.authorization ?? '')?.[1];
    const apiKey = ctx.headers['x-api-key'];
    if (!token && apiKey) return this.admitKey(ctx, apiKey, access, contract);
    if (!token) throw OperationsError.tokenInvalid();
    let claims;
    try {
      claims = await this.keys.verify(token, ctx.em);
    } catch {
      throw OperationsError.tokenInvalid('the token is malformed, expired or not signed by us');
    }
    const asked = ctx.headers['x-organization-id']?.trim();
    const caller = await this.caller(ctx, String(claims.sub), String(claims.jti), asked);
    if (!caller || !caller.active || caller.revoked) throw OperationsError.tokenInvalid('the token is revoked or its user inactive');
    const organizationId = this.organization(caller, access, asked);
    const book = await this.book(ctx, caller);
    this.authorize(caller, access, contract, book);
    return {
      userId: caller.id,
      organizationId,
      roles: caller.roles,
      objects: access.objectScope && this.scoped(caller.roles, access, book) ? caller.object_ids : '*',
      superAdmin: caller.super_admin,
      tokenId: String(claims.jti),
      tokenExpiresAt: new Date(Number(claims.exp) * 1000),
    };
  }

  private async admitKey(ctx: SubgraphContext, secret: string, access: OperationsAccess, contract: OperationContract): Promise<Principal> {
    if (access.userOnly) {
      await this.apiKeys.reportFor(ctx, secret);
      throw OperationsError.forbidden(`${contract.name} needs a user's bearer token, not an API key.`);
    }
    const key = await this.apiKeys.admit(ctx, secret, access, contract);
    const caller: CallerRow = {
      id: key.userId,
      organization_id: key.organizationId,
      roles: key.roles,
      object_ids: key.objectIds,
      super_admin: key.superAdmin,
      active: true,
      revoked: false,
      organization_exists: true,
    };
    const book = await this.book(ctx, caller);
    this.authorize(caller, access, contract, book);
    return {
      userId: key.userId,
      organizationId: access.tenant || !key.superAdmin ? key.organizationId : null,
      roles: key.roles,
      objects: access.objectScope && this.scoped(key.roles, access, book) ? key.objectIds : '*',
      superAdmin: key.superAdmin,
      tokenId: key.keyId,
      tokenExpiresAt: key.expiresAt,
      apiKeyId: key.keyId,
    };
  }

  async refuse(ctx: SubgraphContext, access: OperationsAccess, contract: OperationContract): Promise<void> {
    await this.admit(ctx, access, contract);
  }

  private async caller(ctx: SubgraphContext, userId: string, jti: string, asked: string | undefined): Promise<CallerRow | undefined> {
    if (!UUID.test(userId) || !UUID.test(jti)) return undefined;
    const organization = asked && UUID.test(asked) ? asked : null;
    // raw SQL: caller, revocation and organization checked in one round trip on every request
    const [row] = await ctx.em.execute<CallerRow[]>(
      `select u."id", u."organization_id", u."roles", u."object_ids", u."super_admin", (u."active" and u."banned_at" is null) as "active",
         exists (select 1 from "operations"."revoked_access_token" r where r."jti" = ?) as "revoked",
         (?::uuid is not null and exists (select 1 from "operations"."organization" o where o."id" = ?::uuid)) as "organization_exists"
       from "operations"."app_user" u where u."id" = ?`,
      [jti, organization, organization, userId],
    );
    return row;
  }

  /** A member acts in their organization; the super-admin in the one named by `X-Organization-Id`. */
  private organization(caller: CallerRow, access: OperationsAccess, asked: string | undefined): string | null {
    if (!caller.super_admin) return caller.organization_id;
    if (!access.tenant) return asked && caller.organization_exists ? asked : null;
    if (!asked) throw OperationsError.organizationRequired();
    if (!caller.organization_exists) throw OperationsError.organizationNotFound();
    return asked;
  }

  /** The system roles of a member's organization (none for the super-admin, who holds no role). */
  private async book(ctx: SubgraphContext, caller: CallerRow): Promise<ReadonlyMap<string, RoleGrant>> {
    if (caller.super_admin || !caller.organization_id) return new Map();
    return this.systemRoles.roles(caller.organization_id, ctx.em);
  }

  /** A member may call when one of their roles holds the operation among its permissions (or it is open to `any` member). */
  private authorize(caller: CallerRow, access: OperationsAccess, contract: OperationContract, book: ReadonlyMap<string, RoleGrant>): void {
    if (caller.super_admin) {
      if (access.superAdmin === 'never') throw OperationsError.roleForbidden(contract.name);
      return;
    }
    if (access.superAdmin === 'only') throw OperationsError.roleForbidden(contract.name);
    if (access.roles !== 'any' && !caller.roles.some((role) => book.get(role)?.permissions.has(contract.name))) {
      throw OperationsError.roleForbidden(contract.name);
    }
  }

  /**
   * Limited to their objects when every role held is scoped here: by the operation's
   * `allObjects` when it names them, else by the book's `scopeByObject` unless exempt.
   */
  private scoped(roles: readonly OperationsRole[], access: OperationsAccess, book: ReadonlyMap<string, RoleGrant>): boolean {
    const scoped = (role: OperationsRole) =>
      access.allObjects ? !access.allObjects.includes(role) : (book.get(role)?.scopeByObject ?? false) && !access.exempt.includes(role);
    return roles.length > 0 && roles.every(scoped);
  }
}
