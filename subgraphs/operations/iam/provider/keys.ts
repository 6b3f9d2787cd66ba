import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { SecretBox } from '../../../shared/secret-box.js';

/** The algorithm of ID tokens and access tokens (every OpenID relying party supports it). */
export const SIGNING_ALG = 'RS256';

export interface ProviderKeys {
  /** Private signing keys (JWK), the oldest first: it signs; newer ones are published ahead of a rotation. */
  readonly signing: JWK[];
  /** Cookie-signing keys, the oldest first: it signs, every one verifies. */
  readonly cookies: string[];
}

interface KeyRow {
  kid: string;
  use: 'signing' | 'cookie';
  sealed: string;
}

/**
 * The provider's keys, kept in `operations.oidc_key` sealed with the secret box so every
 * instance and every restart signs and verifies with the same ones. The first instance to
 * start makes them, under an advisory lock so concurrent first starts agree on one set.
 */
export async function loadProviderKeys(root: EntityManager, box: SecretBox): Promise<ProviderKeys> {
  const rows = await root.fork().transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtext('operations.oidc_key'))`);
    const read = () => tx.execute<KeyRow[]>(`select "kid", "use", "sealed" from "operations"."oidc_key" order by "created_at", "kid"`);
    const found = await read();
    if (!found.some((row) => row.use === 'signing')) {
      const { privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: 2048, extractable: true });
      const kid = randomUUID();
      const jwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: 'sig' };
      await tx.execute(`insert into "operations"."oidc_key" ("kid", "use", "sealed") values (?, 'signing', ?)`, [
        kid,
        box.seal(JSON.stringify(jwk)),
      ]);
    }
    if (!found.some((row) => row.use === 'cookie')) {
      await tx.execute(`insert into "operations"."oidc_key" ("kid", "use", "sealed") values (?, 'cookie', ?)`, [
        randomUUID(),
        box.seal(randomBytes(32).toString('base64url')),
      ]);
    }
    return read();
  });
  return {
    signing: rows.filter((row) => row.use === 'signing').map((row) => JSON.parse(box.unseal(row.sealed)) as JWK),
    cookies: rows.filter((row) => row.use === 'cookie').map((row) => box.unseal(row.sealed)),
  };
}
