import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeSupergraph, OPERATIONS_DIR, type Composed } from '../../schema/compose.js';
import { checkOperations } from '../../schema/named-operations.js';

let composed: Composed;
const dirs: string[] = [];

beforeAll(async () => {
  composed = await composeSupergraph();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function operationsDir(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'qantara-ops-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'library'));
  writeFileSync(join(dir, 'library', 'operations.graphql'), text);
  return dir;
}

describe('schema:check of named operations', () => {
  it('finds every committed operation valid against the supergraph, and the internal ones against their subgraph', () => {
    expect(checkOperations(OPERATIONS_DIR, composed.apiSchema, composed.subgraphSchemas)).toEqual([]);
  });

  it('keeps the edge’s internal fields out of the public graph: internal operations do not validate against it', () => {
    expect(checkOperations(OPERATIONS_DIR, composed.apiSchema, { library: composed.apiSchema })).toContainEqual(
      expect.stringContaining('library/internal.graphql: Cannot query field "libraryInputRefusal" on type "Query"'),
    );
  });

  it('fails on an operation that asks for a field the supergraph does not have', () => {
    const dir = operationsDir('query LibraryStats { libraryStats { books pagesz } }');
    expect(checkOperations(dir, composed.apiSchema)).toEqual([
      expect.stringContaining('library/operations.graphql: Cannot query field "pagesz" on type "LibraryStats"'),
    ]);
  });

  it('fails on an operation passing a variable of the wrong type or one that does not parse', () => {
    const wrongType = operationsDir('query LibraryUsage($days: String) { libraryUsage(days: $days) { days } }');
    expect(checkOperations(wrongType, composed.apiSchema)[0]).toContain(
      'Variable "$days" of type "String" used in position expecting type "Int"',
    );
    const broken = operationsDir('query Broken { libraryStats { ');
    expect(checkOperations(broken, composed.apiSchema)[0]).toContain('Syntax Error');
  });
});
