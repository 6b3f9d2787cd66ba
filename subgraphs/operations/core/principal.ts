import type { OperationsRole } from '../../../contracts/access.js';

/** Who is calling an operations operation, as the guard admitted them. */
export interface Principal {
  readonly userId: string;
  /** The organization the call acts in; null for a super-admin on a platform operation. */
  readonly organizationId: string | null;
  readonly roles: readonly OperationsRole[];
  /** Production objects the call is limited to, or `*` for all. */
  readonly objects: readonly string[] | '*';
  readonly superAdmin: boolean;
  /** The access token's id and expiry (for sign-out); for an API key, the key's. */
  readonly tokenId: string;
  readonly tokenExpiresAt: Date;
  /** Set when the call came with an `X-API-Key`. */
  readonly apiKeyId?: string;
}

declare module '../../shared/contracts/implementation.js' {
  interface Callers {
    operations: Principal;
  }
}
