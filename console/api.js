/**
 * The workspace API (`/api/chat/…`) as the signed-in user: the access token on every call;
 * a 401 refreshes it once and tries again.
 */

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `The service answered ${status}.`);
    this.status = status;
    this.body = body;
  }
}

export class SignedOut extends Error {}

export function workspaceApi(session) {
  const base = session.config.api;

  async function call(method, path, body) {
    for (const force of [false, true]) {
      const token = await session.accessToken(force);
      if (!token) throw new SignedOut('Signed out.');
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 401 && !force) continue;
      const text = await response.text();
      const data = text ? JSON.parse(text) : undefined;
      if (!response.ok) throw new ApiError(response.status, data);
      return data;
    }
    throw new SignedOut('Signed out.');
  }

  const thread = (id) => `/threads/${encodeURIComponent(id)}`;
  const key = (id) => `/api-keys/${encodeURIComponent(id)}`;
  return {
    workspace: () => call('GET', '/workspace'),
    signOut: () => call('POST', '/sign-out'),
    threads: () => call('GET', '/threads?limit=100'),
    thread: (id) => call('GET', thread(id)),
    createThread: (message) => call('POST', '/threads', { message }),
    append: (id, message) => call('POST', `${thread(id)}/messages`, { message }),
    startResearch: (id) => call('POST', `${thread(id)}/research-runs`, { force: false }),
    billing: () => call('GET', '/billing'),
    topUp: (usdQuantity, successUrl, cancelUrl) => call('POST', '/billing/top-ups', { usdQuantity, successUrl, cancelUrl }),
    keys: () => call('GET', '/api-keys'),
    createKey: (name, scopes, mode) => call('POST', '/api-keys', { name, scopes, mode }),
    rotateKey: (id) => call('POST', `${key(id)}/rotate`),
    revokeKey: (id) => call('POST', `${key(id)}/revoke`),
  };
}
