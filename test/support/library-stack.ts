import { readFileSync } from 'node:fs';
import { ADMIN_TOKEN } from './library-keys.js';
import { FIXTURE } from './library-content.js';
import type { TestStack } from './stack.js';

const TYPES = { openiti: 'text/markdown', jsonl: 'application/x-ndjson' } as const;

/** `POST /admin/import` of a fixture file, as an operator would send it (`token` null sends none). */
export function adminImport(
  stack: TestStack,
  file: keyof typeof FIXTURE,
  query = '',
  token: string | null = ADMIN_TOKEN,
): Promise<Response> {
  const type = file === 'openiti' ? TYPES.openiti : TYPES.jsonl;
  return stack.fetch(`/admin/import${query}`, {
    method: 'POST',
    headers: { 'content-type': type, ...(token === null ? {} : { 'x-admin-token': token }) },
    body: readFileSync(FIXTURE[file]),
  });
}

/** GET with a bearer key and query parameters; returns status, body and headers. */
export async function getWithKey(stack: TestStack, key: string, path: string, params: Record<string, string | number> = {}) {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]));
  const response = await stack.fetch(`${path}${query.size > 0 ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
