import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OperationsError } from '../operations.errors.js';

/** What a one-time token stands for, and how long it is valid. */
export const ACCOUNT_TOKENS = {
  verifyEmail: { purpose: 'verify_email', minutes: 24 * 60 },
  resetPassword: { purpose: 'reset_password', minutes: 60 },
  approveIp: { purpose: 'approve_ip', minutes: 24 * 60 },
  invitation: { purpose: 'invitation', minutes: 7 * 24 * 60 },
  /** A change of e-mail address, mailed to the new address; the payload names it. */
  changeEmail: { purpose: 'change_email', minutes: 24 * 60 },
  /** The code an external sign-in's redirect carries, exchanged once for the session. */
  externalSignIn: { purpose: 'external_sign_in', minutes: 2 },
} as const;

export type AccountTokenKind = (typeof ACCOUNT_TOKENS)[keyof typeof ACCOUNT_TOKENS];

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

export interface SpentToken<P> {
  readonly userId: string;
  readonly payload: P;
}

/**
 * One-time tokens of e-mailed links (verification, reset, IP approval, invitation) and of
 * external sign-in redirects: 32 random bytes, of which only the SHA-256 is kept; a token is
 * spent by one conditional update, so a link works once even when clicked twice at once.
 */
export const accountTokens = {
  async issue(em: EntityManager, userId: string, kind: AccountTokenKind, payload: Record<string, unknown> = {}): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await em.execute(
      `insert into "operations"."account_token" ("token_hash", "user_id", "purpose", "payload", "expires_at")
       values (?, ?, ?, ?::jsonb, now() + make_interval(mins => ?))`,
      [sha256Hex(token), userId, kind.purpose, JSON.stringify(payload), kind.minutes],
    );
    return token;
  },

  /** Spends a token of this kind, or throws `LINK_INVALID` (unknown, spent, expired, or of another kind). */
  async spend<P = Record<string, unknown>>(em: EntityManager, token: string, kind: AccountTokenKind): Promise<SpentToken<P>> {
    const [row] = await em.execute<Array<{ user_id: string; payload: P }>>(
      `update "operations"."account_token" set "used_at" = now()
       where "token_hash" = ? and "purpose" = ? and "used_at" is null and "expires_at" > now()
       returning "user_id", "payload"`,
      [sha256Hex(token), kind.purpose],
    );
    if (!row) throw OperationsError.linkInvalid();
    return { userId: row.user_id, payload: row.payload };
  },

  /** Spends every open token of this kind for the user (a newer link replaces older ones). */
  async retire(em: EntityManager, userId: string, kind: AccountTokenKind): Promise<void> {
    await em.execute(
      `update "operations"."account_token" set "used_at" = now() where "user_id" = ? and "purpose" = ? and "used_at" is null`,
      [userId, kind.purpose],
    );
  },
};
