import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

/**
 * Another OpenID issuer on loopback, as far as a resource server sees one: its discovery
 * document and its JWKS over HTTP, and access tokens (RFC 9068 JWTs) signed with its key.
 */
export class LoopbackIssuer {
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly privateKey: CryptoKey,
    private readonly kid: string,
  ) {}

  static async start(): Promise<LoopbackIssuer> {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const kid = randomUUID();
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('request', (request, response) => {
      const json = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.url === '/.well-known/openid-configuration') {
        return json({
          issuer,
          jwks_uri: `${issuer}/jwks`,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        });
      }
      if (request.url === '/jwks') return json({ keys: [jwk] });
      response.writeHead(404).end();
    });
    return new LoopbackIssuer(server, issuer, privateKey, kid);
  }

  /** An access token for `audience` naming `subject`. */
  accessToken(subject: string, audience: string, options: { claims?: Record<string, unknown>; expiresIn?: string | number } = {}) {
    return new SignJWT({ scope: 'openid', client_id: 'loopback-client', ...options.claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: this.kid })
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(this.privateKey);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
