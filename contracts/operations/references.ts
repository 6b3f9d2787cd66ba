/**
 * The records an operations body may name by id, spelled as a document's `entityType`
 * (`module.entity`). A field declares which it names with `ops.ref`; the operations
 * subgraph maps each kind to its table (subgraphs/operations/core/references.ts).
 */
export const OPERATIONS_REFERENCE_KINDS = [
  'core.production-object',
  'core.tmc-category',
  'core.downtime-category',
  'core.import-batch',
  'iam.user',
  'eam.asset',
  'eam.asset-class',
  'hr.personnel',
  'hr.position',
  'scm.fuel-tank',
  'scm.fuel-supply',
  'scm.fuel-supply-request',
  'scm.supplier',
  'scm.warehouse',
  'scm.tmc-item',
  'scm.tmc-request',
  'scm.tmc-receipt',
  'scm.tmc-inventory-line',
  'prd.asset-usage',
] as const;

export type OperationsReferenceKind = (typeof OPERATIONS_REFERENCE_KINDS)[number];
