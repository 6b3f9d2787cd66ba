import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OperationsError } from '../operations.errors.js';
import { AccountTokenEntity } from './account-token.entity.js';

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
    em.create(AccountTokenEntity, {
      tokenHash: sha256Hex(token),
      userId,
      purpose: kind.purpose,
      payload,
      expiresAt: new Date(Date.now() + kind.minutes * 60_000),
    });
    await em.flush();
    return token;
  },

  /** Spends a token of this kind, or throws `LINK_INVALID` (unknown, spent, expired, or of another kind). */
  async spend<P = Record<string, unknown>>(em: EntityManager, token: string, kind: AccountTokenKind): Promise<SpentToken<P>> {
    const now = new Date();
    // One conditional update: of two concurrent spends only one finds the token unused.
    const spent = await em
      .createQueryBuilder(AccountTokenEntity)
      .update({ usedAt: now })
      .where({ tokenHash: sha256Hex(token), purpose: kind.purpose, usedAt: null, expiresAt: { $gt: now } })
      .returning(['userId', 'payload'])
      .execute<{ userId: string; payload: P } | null>('get');
    if (!spent) throw OperationsError.linkInvalid();
    return { userId: spent.userId, payload: spent.payload };
  },

  /** Spends every open token of this kind for the user (a newer link replaces older ones). */
  async retire(em: EntityManager, userId: string, kind: AccountTokenKind): Promise<void> {
    await em.nativeUpdate(AccountTokenEntity, { userId, purpose: kind.purpose, usedAt: null }, { usedAt: new Date() });
  },
};
