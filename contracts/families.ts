/**
 * REST error families: which documented wire shape answers a path. A contract's
 * family follows from its path; a path nobody routes is answered by the family owning
 * its longest prefix. Library and research share `/v1`: research owns its documented
 * sub-trees, the library the rest.
 */

export type Family = 'library' | 'library-admin' | 'research' | 'operations';

const PREFIXES: ReadonlyArray<readonly [string, Family]> = [
  ['/api/v1', 'operations'],
  ['/v1/ping', 'research'],
  ['/v1/billing', 'research'],
  ['/v1/api-keys', 'research'],
  ['/v1/chat/threads', 'research'],
  ['/api/chat', 'research'],
  ['/.well-known', 'research'],
  ['/admin/research', 'research'],
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

/** Wire names: the library speaks snake_case (as its seed does); research and operations camelCase, like GraphQL. */
export const SNAKE_CASE_FAMILIES: ReadonlySet<Family> = new Set(['library', 'library-admin']);
