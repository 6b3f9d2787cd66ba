import { describe, expect, it } from 'vitest';
import { CONTRACTS } from '../../contracts/registry.js';
import type { ServiceName } from '../../contracts/operation.js';
import { serviceOpenApi } from '../../rest-facade/openapi/generate.js';

type Operation = { 'x-access'?: unknown; description?: string };

describe.each(['library', 'research', 'operations'] satisfies ServiceName[])('the %s OpenAPI document', (service) => {
  const document = serviceOpenApi(service, CONTRACTS[service]) as {
    paths: Record<string, Record<string, Operation>>;
    info: { description: string };
    'x-error-codes': Array<{ code: string }>;
  };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );

  it('gives every operation, MCP endpoints included, its roles in x-access and at the end of its description', () => {
    expect(operations.length).toBeGreaterThan(5);
    for (const { name, operation } of operations) {
      expect(typeof operation['x-access'], name).toBe('string');
      expect(operation.description?.endsWith(`**Access:** ${operation['x-access'] as string}.`), name).toBe(true);
    }
  });

  it('lists every error code of x-error-codes in a table of its description', () => {
    for (const { code } of document['x-error-codes']) expect(document.info.description).toContain(`| \`${code}\` |`);
  });
});

describe('the operations OpenAPI Access line', () => {
  const document = serviceOpenApi('operations', CONTRACTS.operations) as { paths: Record<string, Record<string, Operation>> };

  it('names the roles that see every object where only they do (brigades) or where a role is exempt (asset movements)', () => {
    expect(document.paths['/api/v1/hr/brigades']?.get?.['x-access']).toBe(
      'CEO, Engineer, Foreman, Mechanic, OtibSpecialist, Supply, Admin or super-admin, object scope except CEO, Engineer, Admin, OtibSpecialist',
    );
    expect(document.paths['/api/v1/hr/brigades']?.post?.description).toMatch(
      /\*\*Access:\*\* Engineer, Foreman, Admin or super-admin, object scope except CEO, Engineer, Admin, OtibSpecialist\.$/,
    );
    expect(document.paths['/api/v1/eam/movements']?.get?.['x-access']).toBe(
      'CEO, Engineer, Foreman, Mechanic, Admin or super-admin, object scope except Mechanic',
    );
  });
});
