/**
 * A browser as far as a sign-in at our OpenID provider needs one, over real HTTP: a cookie
 * jar, redirects followed inside the provider's origin, forms submitted. It stops at a page,
 * or at a redirect that leaves the origin (the client's callback with its code).
 */

/** A browser's cookies: by name and path, sent where the path matches. */
export class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter(
        (cookie) => url.pathname === cookie.path || url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) || '/';
      const expired = attributes.some((attribute) => /^expires=Thu, 01 Jan 1970/i.test(attribute)) || value === '';
      if (expired) this.cookies.delete(`${name};${path}`);
      else this.cookies.set(`${name};${path}`, { name, value, path });
    }
  }
}

export interface Visit {
  /** The page the browser ended on (no redirect), or the redirect to the client it stopped at. */
  readonly status: number;
  readonly url: URL;
  readonly html: string;
  /** Set when the browser was sent out of the provider's origin (the client's redirect URI). */
  readonly callback?: URL;
}

export const decodeEntities = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** A browser: follows redirects inside `origin`, stops at a page or at a redirect elsewhere (or to `stopAt…`). */
export class Browser {
  readonly jar = new CookieJar();

  constructor(
    private readonly origin: string,
    /** A client's redirect URI inside the origin, where the browser stops as it would leave. */
    private readonly stopAt?: string,
  ) {}

  async visit(url: URL | string, form?: Record<string, string>): Promise<Visit> {
    let current = new URL(url);
    let init: RequestInit = form
      ? { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
      : { method: 'GET' };
    for (let hops = 0; hops < 10; hops += 1) {
      const response = await fetch(current, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: this.jar.header(current), 'user-agent': 'oidc-browser-e2e' },
      });
      this.jar.store(response);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, current);
        const leaves = next.origin !== new URL(this.origin).origin || (this.stopAt !== undefined && next.href.startsWith(this.stopAt));
        if (leaves) return { status: response.status, url: current, html: '', callback: next };
        current = next;
        init = { method: 'GET' };
        continue;
      }
      return { status: response.status, url: current, html: await response.text() };
    }
    throw new Error('too many redirects');
  }

  /** Submits the page's form whose action ends with `/<name>`. */
  submit(visit: Visit, name: string, fields: Record<string, string>): Promise<Visit> {
    const actions = [...visit.html.matchAll(/<form method="post" action="([^"]+)"/g)].map((match) => decodeEntities(match[1]!));
    const action = actions.find((candidate) => candidate.endsWith(`/${name}`));
    if (!action) throw new Error(`no ${name} form on ${visit.url.href} (${visit.status}): ${visit.html.slice(0, 500)}`);
    return this.visit(new URL(action, visit.url), fields);
  }
}
