import type { EntityManager } from '@mikro-orm/postgresql';
import type { Account, AccountClaims } from 'oidc-provider';
import type { OperationsRole } from '../../../../contracts/access.js';
import { AppUserEntity } from '../app-user.entity.js';

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
    const user = await this.root.fork().findOne(AppUserEntity, { id: sub, active: true, bannedAt: null, emailVerifiedAt: { $ne: null } });
    if (!user) return undefined;
    return {
      sub: user.id,
      email: user.email,
      email_verified: true,
      name: user.name,
      org: user.organizationId ?? null,
      roles: user.roles as OperationsRole[],
    };
  }

  /** The engine's `findAccount`. */
  async find(sub: string): Promise<Account | undefined> {
    const claims = await this.claims(sub);
    if (!claims) return undefined;
    return { accountId: claims.sub, claims: () => claims };
  }
}
