import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks `x-admin-token` against `ADMIN_TOKEN` in constant time: both sides are
 * hashed first, so neither the content nor the length of the token leaks through
 * timing. With no token configured, admin is disabled and nothing matches.
 */
export class AdminTokenCheck {
  private readonly expected: Buffer | undefined;

  constructor(adminToken: string | undefined) {
    this.expected = adminToken ? digest(adminToken) : undefined;
  }

  matches(presented: string | undefined): boolean {
    if (!this.expected || presented === undefined) return false;
    return timingSafeEqual(digest(presented), this.expected);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
