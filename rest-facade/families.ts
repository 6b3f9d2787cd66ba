import { libraryAdminErrorBody } from './errors/library-admin.js';
import { libraryErrorBody } from './errors/library.js';
import { operationsErrorBody } from './errors/operations.js';
import { researchErrorBody } from './errors/research.js';
import type { ErrorMapper, Family } from './route.js';

export const ERROR_MAPPERS: Readonly<Record<Family, ErrorMapper>> = {
  library: libraryErrorBody,
  'library-admin': libraryAdminErrorBody,
  research: researchErrorBody,
  operations: operationsErrorBody,
};

/**
 * Which family answers a path nobody routes, by longest prefix. Library and
 * research share `/v1`: research owns its documented sub-trees, the library the rest.
 */
const PREFIXES: ReadonlyArray<readonly [string, Family]> = [
  ['/api/v1', 'operations'],
  ['/v1/ping', 'research'],
  ['/v1/billing', 'research'],
  ['/v1/api-keys', 'research'],
  ['/v1/chat/threads', 'research'],
  ['/api/chat', 'research'],
  ['/.well-known', 'research'],
  ['/mcp', 'research'],
  ['/health', 'research'],
  ['/admin', 'library-admin'],
  ['/v1', 'library'],
];

export function familyOf(path: string): Family {
  let best: readonly [string, Family] | undefined;
  for (const entry of PREFIXES) {
    const [prefix] = entry;
    const matches = path === prefix || path.startsWith(`${prefix}/`);
    if (matches && (!best || prefix.length > best[0].length)) best = entry;
  }
  return best?.[1] ?? 'library';
}
