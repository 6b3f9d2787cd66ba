import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Logger } from '../../../../runtime/logger.js';
import { withAfterCommit } from '../../core/after-commit.js';
import type { SecretBox } from '../../../shared/secret-box.js';
import { OidcKeyEntity } from './oidc.entity.js';

/** The algorithm of ID tokens and access tokens (every OpenID relying party supports it). */
export const SIGNING_ALG = 'RS256';

export interface ProviderKeys {
  /** Private signing keys (JWK), the oldest first: it signs; newer ones are published ahead of a rotation. */
  readonly signing: JWK[];
  /** Cookie-signing keys, the oldest first: it signs, every one verifies. */
  readonly cookies: string[];
}

/**
 * The provider's keys, kept in `operations.oidc_key` sealed with the secret box so every
 * instance and every restart signs and verifies with the same ones. The first instance to
 * start makes them, under an advisory lock so concurrent first starts agree on one set.
 */
export async function loadProviderKeys(root: EntityManager, box: SecretBox, logger: Logger): Promise<ProviderKeys> {
  const rows = await withAfterCommit(root.fork(), logger, async (tx) => {
    // raw SQL: a transaction-scoped advisory lock, so concurrent first starts agree on one set.
    await tx.execute(`select pg_advisory_xact_lock(hashtext('operations.oidc_key'))`);
    const found = await tx.find(OidcKeyEntity, {});
    if (!found.some((row) => row.use === 'signing')) {
      const { privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: 2048, extractable: true });
      const kid = randomUUID();
      const jwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: 'sig' };
      tx.create(OidcKeyEntity, { kid, use: 'signing', sealed: box.seal(JSON.stringify(jwk)) });
    }
    if (!found.some((row) => row.use === 'cookie')) {
      tx.create(OidcKeyEntity, { kid: randomUUID(), use: 'cookie', sealed: box.seal(randomBytes(32).toString('base64url')) });
    }
    await tx.flush();
    return tx.find(OidcKeyEntity, {}, { orderBy: { createdAt: 'asc', kid: 'asc' } });
  });
  return {
    signing: rows.filter((row) => row.use === 'signing').map((row) => JSON.parse(box.unseal(row.sealed)) as JWK),
    cookies: rows.filter((row) => row.use === 'cookie').map((row) => box.unseal(row.sealed)),
  };
}
