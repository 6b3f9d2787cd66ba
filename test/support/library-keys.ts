import type { TestStack } from './stack.js';

/** The admin token the library test stacks run with. */
export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface IssuedKeyBody {
  id: number;
  key: string;
  plan: string;
  limits: { rpm: number; rpd: number; max_limit: number };
}

export function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

/** Creates a key through `POST /admin/keys` (registration is limited per client address). */
export async function adminKey(
  stack: TestStack,
  plan = 'free',
  email = `user-${Math.random().toString(36).slice(2)}@example.org`,
): Promise<IssuedKeyBody> {
  const response = await stack.fetch('/admin/keys', json({ email, plan }, { 'x-admin-token': ADMIN_TOKEN }));
  if (response.status !== 200) throw new Error(`admin key: ${response.status} ${await response.text()}`);
  return (await response.json()) as IssuedKeyBody;
}

export async function adminPost(stack: TestStack, path: string, body: unknown, token: string | undefined = ADMIN_TOKEN): Promise<Response> {
  return stack.fetch(path, json(body, token === undefined ? {} : { 'x-admin-token': token }));
}

/** Waits out the last seconds of a minute, so a burst that must share a minute window does. */
export async function awayFromMinuteEdge(needSeconds = 12): Promise<void> {
  const intoMinute = (Date.now() % 60_000) / 1000;
  if (intoMinute > 60 - needSeconds) await new Promise((resolve) => setTimeout(resolve, (60 - intoMinute) * 1000 + 250));
}

export const RATE_LIMIT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-quota-limit',
  'x-quota-remaining',
  'x-quota-reset',
  'ratelimit-policy',
  'ratelimit',
] as const;

export function rateLimitHeaders(response: Response): Record<string, string | null> {
  return Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, response.headers.get(name)]));
}
