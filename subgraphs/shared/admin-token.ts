import { createHash, timingSafeEqual } from 'node:crypto';
import type { AdminTokenAccess } from '../../contracts/access.js';
import type { DomainError } from '../../contracts/errors.js';
import type { SubgraphContext } from './context.js';
import type { Guard } from './contracts/implementation.js';

declare module './contracts/implementation.js' {
  interface Callers {
    adminToken: undefined;
  }
}

/**
 * Checks `x-admin-token` against `ADMIN_TOKEN` in constant time: both sides are
 * hashed first, so neither the content nor the length of the token leaks through
 * timing. With no token configured, admin is disabled and nothing matches. Each service
 * guards its `adminToken()` operations with one, refusing in its own words
 * (`unauthorized`). Input is checked before the token, as FastAPI checks a request
 * before its handler's dependencies, so it has no `refuse`.
 */
export class AdminTokenCheck implements Guard<AdminTokenAccess> {
  private readonly expected: Buffer | undefined;

  constructor(
    adminToken: string | undefined,
    private readonly unauthorized: () => DomainError,
  ) {
    this.expected = adminToken ? digest(adminToken) : undefined;
  }

  async admit(ctx: SubgraphContext): Promise<undefined> {
    if (!this.matches(ctx.headers['x-admin-token'])) throw this.unauthorized();
    return undefined;
  }

  matches(presented: string | undefined): boolean {
    if (!this.expected || presented === undefined) return false;
    return timingSafeEqual(digest(presented), this.expected);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
