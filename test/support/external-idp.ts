import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** A person at the external identity provider. */
export interface ExternalPerson {
  readonly email?: string;
  readonly email_verified?: boolean;
  readonly name?: string;
}

/**
 * A real OpenID provider (`oidc-provider`) on loopback standing in for an external
 * identity provider: one confidential client, PKCE required, its built-in sign-in page
 * (any login name is an account, looked up in `people`), consent granted automatically.
 */
export class ExternalIdp {
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    readonly people: Map<string, ExternalPerson>,
  ) {}

  static async start(client: { clientId: string; clientSecret: string; redirectUris: string[] }): Promise<ExternalIdp> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const people = new Map<string, ExternalPerson>();
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: client.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: false,
      cookies: { keys: ['external-idp-test-cookie-key'] },
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
      findAccount: (_ctx: KoaContextWithOIDC, id: string) => ({
        accountId: id,
        claims: () => ({ sub: id, ...people.get(id) }),
      }),
      async loadExistingGrant(ctx: KoaContextWithOIDC) {
        const { oidc } = ctx;
        const existing = oidc.session?.grantIdFor(oidc.client!.clientId);
        if (existing) return oidc.provider.Grant.find(existing);
        const grant = new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId! });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    });
    server.on('request', provider.callback());
    return new ExternalIdp(server, issuer, people);
  }

  /**
   * Signs `login` in on the provider's page, starting at the authorization address, and
   * returns where the provider finally sends the browser (our callback with code and state).
   */
  async signIn(authorizationUrl: string, login: string): Promise<string> {
    const jar = new Map<string, string>();
    const go = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      return response;
    };
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      if (!url.startsWith(this.issuer)) return url;
      const response = await go(url);
      const location = response.headers.get('location');
      if (location) {
        url = new URL(location, url).href;
        continue;
      }
      const page = await response.text();
      const action = /action="([^"]+)"/.exec(page)?.[1];
      if (!action) throw new Error(`no form at ${url}: ${page.slice(0, 300)}`);
      const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1] ?? 'login';
      const form = new URLSearchParams({ prompt, login, password: 'any' });
      const posted = await go(new URL(action, url).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      url = new URL(posted.headers.get('location')!, url).href;
    }
    throw new Error('too many hops at the external provider');
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
