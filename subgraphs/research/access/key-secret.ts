import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyMode } from '../../../contracts/research/account-types.js';

/** What every research key starts with. */
export const KEY_PREFIX = 'rk_';

/** A JSON Web Token in compact serialization: three base64url parts (the last, the signature, may be empty). */
const JWT_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether a presented string has the shape of a JWT (an access token), whatever it holds. */
export const looksLikeJwt = (candidate: string): boolean => JWT_PATTERN.test(candidate);

/** `rk_live_` or `rk_test_` + 43 URL-safe characters (256 random bits); only the SHA-256 is stored. */
const KEY_PATTERN = /^rk_(live|test)_[A-Za-z0-9_-]{43}$/;
/** How much of a key stays readable in listings. */
const DISPLAY_PREFIX_LENGTH = 12;

export interface NewKeySecret {
  readonly key: string;
  readonly hash: string;
  readonly prefix: string;
}

export const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

export function newKeySecret(mode: KeyMode): NewKeySecret {
  const key = `rk_${mode}_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashKey(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** Whether a presented string could be a key at all; anything else is refused without a lookup. */
export const looksLikeKey = (candidate: string): boolean => KEY_PATTERN.test(candidate);

/** Compares two hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `Authorization: Bearer <key>` → the key. */
export function bearerKey(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization?.trim() ?? '')?.[1];
}

/** A random id with a readable prefix: `thread_…`, `msg_…`, `run_…`. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
