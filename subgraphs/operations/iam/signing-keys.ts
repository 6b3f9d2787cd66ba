import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import { ACCOUNT_TOKEN } from '../../../contracts/identity.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { SigningKeyEntity } from './session.entity.js';

/**
 * The keys access tokens are signed with: Ed25519, made once and kept in the database
 * with the private half sealed by the secret box, so every instance signs with the same
 * key and verifies any key it finds (JWKS at `/api/v1/iam/jwks`).
 */

const ALG = ACCOUNT_TOKEN.algorithm;
export const TOKEN_ISSUER = ACCOUNT_TOKEN.issuer;
export const TOKEN_AUDIENCE = ACCOUNT_TOKEN.audience;

interface KeyRow {
  kid: string;
  publicJwk: JWK;
  privateJwk: string;
}

type Key = Awaited<ReturnType<typeof importJWK>>;

export class SigningKeys {
  private signer: { kid: string; key: Key } | undefined;
  private readonly verifiers = new Map<string, Key>();
  private publicKeys: JWK[] = [];

  constructor(private readonly box: SecretBox) {}

  /** Loads the keys, making the first one when there is none; the oldest key signs. */
  async load(em: EntityManager): Promise<void> {
    let rows = await this.rows(em);
    if (rows.length === 0) {
      const { publicKey, privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
      const kid = randomUUID();
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
      em.create(SigningKeyEntity, {
        kid,
        alg: ALG,
        publicJwk: publicJwk as Record<string, unknown>,
        privateJwk: this.box.seal(JSON.stringify(await exportJWK(privateKey))),
      });
      await em.flush();
      rows = await this.rows(em);
    }
    for (const row of rows) this.verifiers.set(row.kid, await importJWK(row.publicJwk, ALG));
    this.publicKeys = rows.map((row) => row.publicJwk);
    const oldest = rows[0]!;
    this.signer = { kid: oldest.kid, key: await importJWK(JSON.parse(this.box.unseal(oldest.privateJwk)) as JWK, ALG) };
  }

  private async rows(em: EntityManager): Promise<KeyRow[]> {
    // Read fresh: another instance may have added a key since this context last looked.
    const keys = await em.find(SigningKeyEntity, {}, { orderBy: { createdAt: 'asc', kid: 'asc' }, refresh: true });
    return keys.map((key) => ({ kid: key.kid, publicJwk: key.publicJwk as JWK, privateJwk: key.privateJwk }));
  }

  get ready(): boolean {
    return this.signer !== undefined;
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.publicKeys };
  }

  async sign(claims: JWTPayload, subject: string, jti: string, expiresInSeconds: number): Promise<string> {
    if (!this.signer) throw new Error('signing keys are not loaded');
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: this.signer.kid, typ: 'at+jwt' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(subject)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(`${expiresInSeconds}s`)
      .sign(this.signer.key);
  }

  /** The token's claims when its signature, issuer, audience and expiry hold; a key made by another instance is loaded on first sight. */
  async verify(token: string, em: EntityManager): Promise<JWTPayload> {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const kid = header.kid ?? '';
        if (!this.verifiers.has(kid)) await this.load(em);
        const key = this.verifiers.get(kid);
        if (!key) throw new Error('unknown signing key');
        return key;
      },
      { issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, algorithms: [ALG] },
    );
    return payload;
  }
}
