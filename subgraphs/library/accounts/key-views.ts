import type { LibraryKeyData } from '../../../contracts/library/account-types.js';
import type { ApiKey } from './api-key.entity.js';
import { limitsOf, type Limits } from '../../../contracts/library/plans.js';

/** A key as it was just issued: the only time the whole key is ever returned. */
export interface IssuedKey {
  readonly id: number;
  readonly key: string;
  readonly plan: string;
  readonly limits: Limits;
}

/** A key as its owner and admins see it: never the key itself. */
export interface KeyView {
  readonly id: number;
  readonly prefix: string;
  readonly email: string;
  readonly org: string | null;
  readonly plan: string;
  readonly status: string;
  readonly rpdOverride: number | null;
  readonly limits: Limits;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

export function keyView(key: ApiKey, lastUsedAt: Date | null): KeyView {
  return {
    id: key.id,
    prefix: key.prefix,
    email: key.email,
    org: key.org ?? null,
    plan: key.plan,
    status: key.status,
    rpdOverride: key.rpdOverride ?? null,
    limits: limitsOf(key.plan, key.rpdOverride ?? null),
    createdAt: key.createdAt,
    lastUsedAt,
  };
}

/** A key view as the GraphQL `LibraryKey` carries it (ISO 8601 times). */
export function keyData(view: KeyView): LibraryKeyData {
  return { ...view, createdAt: view.createdAt.toISOString(), lastUsedAt: view.lastUsedAt?.toISOString() ?? null };
}
