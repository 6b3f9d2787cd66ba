import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeAccess, publicAccess, type Access } from '../../contracts/access.js';
import { defineOperation } from '../../contracts/operation.js';
import { ALL_CONTRACTS, checkContracts, CONTRACTS } from '../../contracts/registry.js';
import { OperationPipeline } from '../../subgraphs/shared/contracts/pipeline.js';
import { implement } from '../../subgraphs/shared/contracts/implementation.js';

const KINDS: ReadonlyArray<Access['kind']> = [
  'public',
  'libraryKey',
  'libraryAccount',
  'adminToken',
  'researchKey',
  'researchUser',
  'operations',
];

describe('access of every operation', () => {
  it('lists every operation of every service with a declared access of a known kind', () => {
    const table = ALL_CONTRACTS.map((contract) => `${contract.service} ${contract.name}: ${describeAccess(contract.access)}`);
    expect(table).toHaveLength(ALL_CONTRACTS.length);
    for (const contract of ALL_CONTRACTS) {
      expect(contract.access.length, contract.name).toBeGreaterThan(0);
      for (const access of contract.access) expect(KINDS, contract.name).toContain(access.kind);
    }
    expect(() => checkContracts()).not.toThrow();
    // The list a reviewer reads: one line per operation.
    expect(table.join('\n')).toContain('library libraryRetrieve: library key (metered as retrieve)');
    expect(table.join('\n')).toContain('library libraryAdminStats: admin token');
  });

  it('refuses to declare an operation without an access', () => {
    const declaration = { service: 'library', name: 'libraryNoAccess', kind: 'query', summary: 'x', output: z.string() } as const;
    expect(() => defineOperation(declaration as never)).toThrow('operation libraryNoAccess: declares no access');
  });

  it('refuses a set of operations where one has lost its access', () => {
    const broken = { ...CONTRACTS.library[0]!, access: undefined as unknown as readonly Access[] };
    expect(() => checkContracts({ ...CONTRACTS, library: [...CONTRACTS.library, { ...broken, name: 'libraryBroken' }] })).toThrow(
      'operation libraryBroken declares no access',
    );
  });

  it('does not start a subgraph whose operation has an access kind no guard serves', () => {
    const contract = defineOperation({
      service: 'library',
      name: 'libraryUnguarded',
      kind: 'query',
      summary: 'x',
      access: { kind: 'adminToken' },
      output: z.string(),
    });
    expect(
      () =>
        new OperationPipeline([contract], {
          implementations: [implement(contract, () => 'x')],
          guards: { public: { admit: async () => undefined } },
        }),
    ).toThrow('operation libraryUnguarded: no guard serves access adminToken');
    const open = defineOperation({
      service: 'library',
      name: 'libraryOpen',
      kind: 'query',
      summary: 'x',
      access: publicAccess(),
      output: z.string(),
    });
    expect(() => new OperationPipeline([open], { implementations: [], guards: { public: { admit: async () => undefined } } })).toThrow(
      'operation libraryOpen has no implementation',
    );
  });
});
