import type { Session } from '../operations.js';
import type { TestStack } from '../stack.js';

/** What a module's provider gets: the stack and the other organization's Admin (a super-admin session too). */
export interface ForeignContext {
  readonly stack: TestStack;
  readonly organizationId: string;
  readonly admin: Session;
  readonly root: Session;
}

/**
 * Records of another organization for the cross-tenant matrix: each key is a REST path
 * prefix (or a path parameter name such as `batchId`), each value the id of a record of
 * the other organization that routes under that prefix name.
 */
export type ForeignRecords = (context: ForeignContext) => Promise<Record<string, string>>;
