import { readFileSync } from 'node:fs';
import { ADMIN_TOKEN, adminKey } from './library-keys.js';
import { FIXTURE } from './library-content.js';
import { startStack, type TestStack } from './stack.js';

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

/**
 * A stack with the admin token, the fixture `files` imported in order, and a key on the
 * unlimited plan: what the reading, retrieval and MCP tests stand on. A refused import
 * throws with the answer (the stack stopped).
 */
export async function startLibraryStack(
  files: ReadonlyArray<keyof typeof FIXTURE> = ['pages', 'openiti'],
  env: Record<string, string> = {},
): Promise<{ stack: TestStack; key: string }> {
  const stack = await startStack({ ADMIN_TOKEN, ...env });
  try {
    for (const file of files) {
      const response = await adminImport(stack, file);
      if (response.status !== 200) throw new Error(`import ${file}: ${response.status} ${await response.text()}`);
    }
    return { stack, key: (await adminKey(stack, 'unlimited')).key };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}
