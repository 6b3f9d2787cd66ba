import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publicAccess } from '../../contracts/access.js';
import { DomainError } from '../../contracts/errors.js';
import { defineOperation } from '../../contracts/operation.js';
import { coreInitiateDocumentUpload } from '../../contracts/operations/documents/documents.contract.js';
import { ops } from '../../contracts/operations/fields.js';
import { scmRegisterTmcReceipt } from '../../contracts/operations/scm/tmc-movements.contract.js';
import { referenceFields, referenceValues } from '../../contracts/references.js';
import { OPERATIONS_CONTRACTS } from '../../contracts/operations/index.js';
import { serviceOpenApi } from '../../rest-facade/openapi/generate.js';
import { implement, type ReferenceCheck } from '../../subgraphs/shared/contracts/implementation.js';
import { OperationPipeline } from '../../subgraphs/shared/contracts/pipeline.js';
import { OperationsError } from '../../subgraphs/operations/operations.errors.js';

const ASSET = '6f1c2a4e-0d3b-4c5e-8f7a-9b0c1d2e3f40';
const OTHER = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';

describe('declared references', () => {
  it('are read from the contract, nested list items included, by the names a caller reads', () => {
    expect(referenceFields(scmRegisterTmcReceipt).map((field) => field.param)).toEqual([
      'warehouseId',
      'supplierId',
      'requestId',
      'receivedById',
      'lines[].itemId',
    ]);
  });

  it('give every id of an input with its item index, and a kind read from a sibling field', () => {
    const values = referenceValues(scmRegisterTmcReceipt, {
      warehouseId: ASSET,
      supplierId: null,
      lines: [{ itemId: OTHER }, { itemId: ASSET }],
    });
    expect(values.map(({ param, kind, id }) => [param, kind, id])).toEqual([
      ['warehouseId', 'scm.warehouse', ASSET],
      ['lines[0].itemId', 'scm.tmc-item', OTHER],
      ['lines[1].itemId', 'scm.tmc-item', ASSET],
    ]);
    const document = referenceValues(coreInitiateDocumentUpload, { entityType: 'eam.asset', entityId: ASSET, filename: 'a' });
    expect(document.map(({ param, kind }) => [param, kind])).toEqual([['entityId', 'eam.asset']]);
  });
});

describe('the OpenAPI of operations', () => {
  it('says what an id names and that one naming no visible record answers 404', () => {
    const document = serviceOpenApi('operations', OPERATIONS_CONTRACTS) as {
      paths: Record<
        string,
        Record<string, { requestBody: { content: Record<string, { schema: unknown }> }; responses: Record<string, unknown> }>
      >;
    };
    const created = document.paths['/api/v1/scm/tmc/items']!.post!;
    expect(Object.keys(created.responses)).toContain('404');
    expect(JSON.stringify(created.requestBody.content['application/json']!.schema)).toContain('"x-references":{"kind":"eam.asset-class"}');
  });
});

describe('the pipeline’s check of references', () => {
  const contract = defineOperation({
    service: 'operations',
    name: 'testUseAsset',
    kind: 'mutation',
    summary: 'Uses an asset.',
    access: publicAccess(),
    input: { body: { assetId: ops.ref('eam.asset') } },
    output: z.string(),
  });
  const refusal = OperationsError.referenceNotFound('Asset', 'assetId');
  const check: ReferenceCheck = {
    unseen: async (values) => (values.some((value) => value.id !== ASSET) ? refusal : undefined),
    dangling: (error) => (error as { code?: string }).code === '23503',
  };
  const pipeline = (service: () => string) =>
    new OperationPipeline([contract], {
      implementations: [implement(contract, service)],
      guards: { public: { admit: async () => undefined } },
      references: check,
    });
  const ctx = { extensions: {}, headers: {} } as never;

  it('runs the service when every id names a visible record', async () => {
    await expect(pipeline(() => 'used').run(contract, ctx, { assetId: ASSET })).resolves.toBe('used');
  });

  it('refuses an id that names no visible record even when the service would accept it', async () => {
    await expect(pipeline(() => 'used').run(contract, ctx, { assetId: OTHER })).rejects.toBe(refusal);
  });

  it('refuses it too when only the database’s foreign key found the record missing', async () => {
    const violation = Object.assign(new Error('insert violates foreign key constraint'), { code: '23503' });
    const service = () => {
      throw violation;
    };
    await expect(pipeline(service).run(contract, ctx, { assetId: OTHER })).rejects.toBe(refusal);
  });

  it('lets the service’s own refusal answer first (the path’s record is missing)', async () => {
    const own = OperationsError.notFound('Shift report');
    const service = () => {
      throw own;
    };
    await expect(pipeline(service).run(contract, ctx, { assetId: OTHER })).rejects.toBe(own);
    expect(own).toBeInstanceOf(DomainError);
  });
});
