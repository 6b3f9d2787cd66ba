import type { Family } from '../contracts/families.js';
import { libraryAdminErrorBody } from './errors/library-admin.js';
import { libraryErrorBody } from './errors/library.js';
import { operationsErrorBody } from './errors/operations.js';
import { researchErrorBody } from './errors/research.js';
import type { ErrorMapper } from './route.js';

/** Each REST family's error mapper: the one place a family's error body is written. */
export const ERROR_MAPPERS: Readonly<Record<Family, ErrorMapper>> = {
  library: libraryErrorBody,
  'library-admin': libraryAdminErrorBody,
  research: researchErrorBody,
  operations: operationsErrorBody,
};
