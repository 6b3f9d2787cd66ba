import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every key starts with the service prefix and `live_`: `qk_live_` + 43 URL-safe characters. */
export const KEY_PREFIX = 'qk_live_';
const KEY_PATTERN = /^qk_live_[A-Za-z0-9_-]{43}$/;
/** How much of a key is kept in clear to tell keys apart in listings. */
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;

export interface NewKeySecret {
  /** The whole key, shown once to its owner and never stored. */
  readonly key: string;
  /** SHA-256 of the key, hex; the only form stored. */
  readonly hash: string;
  /** `qk_live_` and the next four characters, for listings. */
  readonly prefix: string;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** 32 random bytes, base64url: 256 bits of entropy in 43 characters. */
export function newKeySecret(): NewKeySecret {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashKey(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** Whether a presented string could be a key at all; anything else is refused without a lookup. */
export function looksLikeKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

/** Compares two hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `Authorization: Bearer <key>` → the key; `undefined` when no bearer key was sent. */
export function bearerKey(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization?.trim() ?? '');
  return match?.[1];
}
