import type { EntityManager } from '@mikro-orm/postgresql';
import type { Account, AccountClaims } from 'oidc-provider';
import type { OperationsRole } from '../../../../contracts/access.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The claims each scope releases (the engine's `claims` setting); `workspace` is ours. The ID
 * token's `amr` says how the person signed in: `pwd`, plus `mfa` and `otp` after a second factor.
 */
export const SCOPE_CLAIMS = {
  openid: ['sub', 'amr'],
  email: ['email', 'email_verified'],
  profile: ['name'],
  workspace: ['org', 'roles'],
} as const;

interface AccountRow {
  id: string;
  email: string;
  name: string;
  organization_id: string | null;
  roles: OperationsRole[];
}

export interface AccountClaimSet extends AccountClaims {
  sub: string;
  email: string;
  email_verified: true;
  name: string;
  /** The organization the user belongs to; null for the platform super-admin. */
  org: string | null;
  roles: OperationsRole[];
}

/**
 * The provider's accounts are the operations service's users (`operations.app_user`): an
 * account that is inactive, banned or not verified is not found, so it gets no code, no
 * token and no refresh — whatever session or grant it had.
 */
export class ProviderAccounts {
  constructor(private readonly root: EntityManager) {}

  async claims(sub: string): Promise<AccountClaimSet | undefined> {
    if (!UUID.test(sub)) return undefined;
    // raw SQL: the OpenID engine reads accounts on its own connection, outside any request context
    const [row] = await this.root.fork().execute<AccountRow[]>(
      `select "id", "email", "name", "organization_id", "roles" from "operations"."app_user"
       where "id" = ? and "active" and "banned_at" is null and "email_verified_at" is not null`,
      [sub],
    );
    if (!row) return undefined;
    return { sub: row.id, email: row.email, email_verified: true, name: row.name, org: row.organization_id, roles: row.roles };
  }

  /** The engine's `findAccount`. */
  async find(sub: string): Promise<Account | undefined> {
    const claims = await this.claims(sub);
    if (!claims) return undefined;
    return { accountId: claims.sub, claims: () => claims };
  }
}
