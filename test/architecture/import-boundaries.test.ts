import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A small tree laid out like the project's, each file one import: the boundary rules of
 * `npm run lint` (.dependency-cruiser.mjs) must refuse exactly the imports marked here as
 * violations, and let the others through.
 */
const TREE: Record<string, string> = {
  'contracts/operation.ts': `export type Operation = { readonly name: string };\n`,
  'contracts/leak.ts': `import { level } from '../runtime/config.js';\nexport const leak = level;\n`,
  'runtime/config.ts': `export const level = 'info';\n`,
  'runtime/reaches-up.ts': `import { gateway } from '../gateway/gateway.js';\nexport const up = gateway;\n`,
  'subgraphs/shared/shared.ts': `import type { Operation } from '../../contracts/operation.js';\nexport const shared: Operation[] = [];\n`,
  'subgraphs/shared/knows-a-subgraph.ts': `import { x } from '../operations/core/x.js';\nexport const known = x;\n`,
  'subgraphs/library/library.ts': `import { research } from '../research/research.js';\nexport const library = research;\n`,
  'subgraphs/research/research.ts': `import { shared } from '../shared/shared.js';\nimport { level } from '../../runtime/config.js';\nexport const research = [shared, level];\n`,
  // core → iam → core through different files: no circle of files, a circle of modules.
  'subgraphs/operations/core/x.ts': `import { y } from '../iam/y.js';\nexport const x = y;\n`,
  'subgraphs/operations/core/z.ts': `export const z = 1;\n`,
  'subgraphs/operations/iam/y.ts': `import { z } from '../core/z.js';\nexport const y = z;\n`,
  'gateway/gateway.ts': `import { shared } from '../subgraphs/shared/shared.js';\nexport const gateway = shared;\n`,
  // A circle of two files held by type-only imports.
  'gateway/a.ts': `import type { B } from './b.js';\nexport type A = { b?: B };\n`,
  'gateway/b.ts': `import type { A } from './a.js';\nexport type B = { a?: A };\n`,
  'edge/edge.ts': `import { gateway } from '../gateway/gateway.js';\nexport const edge = gateway;\n`,
  'mcp/mcp.ts': `import { edge } from '../edge/edge.js';\nexport const mcp = edge;\n`,
  'rest-facade/rest.ts': `import { mcp } from '../mcp/mcp.js';\nimport { edge } from '../edge/edge.js';\nexport const rest = [mcp, edge];\n`,
  'server/system.ts':
    `import { rest } from '../rest-facade/rest.js';\nimport { mcp } from '../mcp/mcp.js';\nimport { library } from '../subgraphs/library/library.js';\n` +
    `export const system = [rest, mcp, library];\n`,
  'main.ts': `import { system } from './server/system.js';\nexport const main = system;\n`,
};

const VIOLATIONS = [
  'contracts-not-upward: contracts/leak.ts → runtime/config.ts',
  'contracts-self-contained: contracts/leak.ts → runtime/config.ts',
  'runtime-not-upward: runtime/reaches-up.ts → gateway/gateway.ts',
  'subgraphs-shared-not-a-subgraph: subgraphs/shared/knows-a-subgraph.ts → subgraphs/operations/core/x.ts',
  'subgraph-not-another: subgraphs/library/library.ts → subgraphs/research/research.ts',
  'operations-modules-not-circular: subgraphs/operations/core → subgraphs/operations/iam',
  'operations-modules-not-circular: subgraphs/operations/iam → subgraphs/operations/core',
  // A circle of files is reported once, at its first file.
  'no-circular: gateway/a.ts → gateway/b.ts',
  'rest-facade-not-sideways: rest-facade/rest.ts → mcp/mcp.ts',
];

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'qantara-boundaries-'));
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
  const { default: config } = (await import(pathToFileURL(resolve('.dependency-cruiser.mjs')).href)) as { default: IConfiguration };
  const roots = [...new Set(Object.keys(TREE).map((path) => path.split('/')[0]!))];
  const cruised = await cruise(roots, {
    ...config.options,
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  });
  result = cruised.output as ICruiseResult;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the import boundaries checked by npm run lint', () => {
  it('reads every import of the tree', () => {
    const imports = result.modules.filter((module) => module.source in TREE).flatMap((module) => module.dependencies);
    expect(imports.filter((dependency) => dependency.couldNotResolve)).toEqual([]);
    expect(imports).toHaveLength(20);
  });

  it('refuses exactly the imports that run up a layer, across subgraphs or floors, out of contracts, or in a circle', () => {
    const refused = result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`);
    expect(refused.sort()).toEqual([...VIOLATIONS].sort());
    expect(result.summary.error).toBe(VIOLATIONS.length);
  });
});
