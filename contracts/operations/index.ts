import type { OperationContract } from '../operation.js';
import { operationsDocs } from './docs.contract.js';
import { asyncApiOperation } from './events.contract.js';
import { EAM_CONTRACTS } from './eam/index.js';
import { FUEL_CONTRACTS } from './fuel/index.js';
import { operationsHealth, operationsLiveness, operationsMetrics } from './health.contract.js';
import { ACCOUNT_CONTRACTS } from './accounts.contract.js';
import { API_KEY_CONTRACTS } from './api-keys.contract.js';
import {
  iamBanUser,
  iamCreateUser,
  iamJwks,
  iamListUsers,
  iamLogout,
  iamMe,
  iamRefresh,
  iamUnbanUser,
  iamUpdateUser,
} from './iam.contract.js';
import { DOCUMENT_CONTRACTS } from './documents/documents.contract.js';
import { HR_CONTRACTS } from './hr/index.js';
import { NOTIFICATION_CONTRACTS } from './notifications.contract.js';
import { OIDC_CLIENT_CONTRACTS } from './oidc-clients.contract.js';
import { PRD_CONTRACTS } from './prd/index.js';
import {
  coreCreateOrganization,
  coreDeactivateOrganization,
  coreGetOrganization,
  coreListOrganizations,
  coreReactivateOrganization,
  coreUpdateOrganization,
} from './organizations.contract.js';
import { coreAuditHistory, coreTrashEntities, coreTrashRestore, coreTrashRows } from './records.contract.js';
import { coreReferenceBooks, REFERENCE_BOOKS } from './reference-books.contract.js';
import { OPERATIONS_SUBSCRIPTIONS, SAGA_CONTRACTS } from './sagas.contract.js';
import { SCM_CONTRACTS } from './scm/index.js';
import { WEBHOOK_CONTRACTS } from './webhooks.contract.js';

/** Every operation of the operations service (seed 002, parts B and C of seed 001). */
const operationsAsyncApiDocument = asyncApiOperation(() => OPERATIONS_CONTRACTS);

export const OPERATIONS_CONTRACTS: readonly OperationContract[] = [
  operationsHealth,
  operationsLiveness,
  operationsMetrics,
  operationsDocs,
  operationsAsyncApiDocument,
  iamRefresh,
  iamLogout,
  iamMe,
  iamCreateUser,
  iamListUsers,
  iamBanUser,
  iamUnbanUser,
  iamUpdateUser,
  iamJwks,
  ...ACCOUNT_CONTRACTS,
  ...API_KEY_CONTRACTS,
  ...OIDC_CLIENT_CONTRACTS,
  ...NOTIFICATION_CONTRACTS,
  coreCreateOrganization,
  coreListOrganizations,
  coreGetOrganization,
  coreUpdateOrganization,
  coreDeactivateOrganization,
  coreReactivateOrganization,
  coreAuditHistory,
  coreTrashEntities,
  coreTrashRows,
  coreTrashRestore,
  coreReferenceBooks,
  ...REFERENCE_BOOKS.flatMap((book) => book.contracts),
  ...EAM_CONTRACTS,
  ...FUEL_CONTRACTS,
  ...SCM_CONTRACTS,
  ...DOCUMENT_CONTRACTS,
  ...HR_CONTRACTS,
  ...PRD_CONTRACTS,
  ...WEBHOOK_CONTRACTS,
  ...SAGA_CONTRACTS,
];

/** Every GraphQL subscription of the operations service. */
export { OPERATIONS_SUBSCRIPTIONS };
