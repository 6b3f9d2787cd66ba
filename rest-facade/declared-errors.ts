import { appendFileSync } from 'node:fs';
import { errorCatalogue, errorCode, type ErrorNamespace } from '../contracts/errors.js';
import type { OperationContract } from '../contracts/operation.js';
import { declaredStatuses } from './openapi/generate.js';

/**
 * Whether an error a route answered is one its published description declares, so a
 * generated client can trust the OpenAPI document: the status must be among the
 * operation's documented responses, and a service's own code must be one the contract
 * lists. Codes every operation may meet (`common`, the HTTP edge) and the codes of the
 * access pipeline (401, 403, 429: which key, token or role failed) are the family's.
 * With `QANTARA_CHECK_DECLARED_ERRORS` naming a file, the facade appends every answer
 * that breaks this to it, one JSON object a line; the tests read it.
 */

/** Statuses any route may answer, before or beside its contract: unreadable bodies, failures. */
const EVERY_ROUTE = new Set([400, 413, 415, 500, 502, 503]);
/** Statuses whose codes say which credential or limit failed; the status is what the contract declares. */
const ACCESS = new Set([401, 403, 429]);
const GENERIC: readonly ErrorNamespace[] = ['common', 'edge', 'graphql'];

let genericCodes: ReadonlySet<string> | undefined;
function isGeneric(code: string): boolean {
  genericCodes ??= new Set(errorCatalogue(GENERIC).flatMap((entry) => [entry.code, entry.code.toLowerCase()]));
  return genericCodes.has(code);
}

export interface UndeclaredAnswer {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly code: string | null;
}

/** Why an answer is not declared, or null when it is. */
export function undeclaredReason(contract: OperationContract, status: number, code: string | null): string | null {
  if (status < 400) return null;
  const own = contract.errors.map((key) => errorCode(key));
  if (code !== null && own.some((entry) => entry.code === code && entry.status === status)) return null;
  const statuses = new Set(declaredStatuses(contract));
  if (!statuses.has(status) && !EVERY_ROUTE.has(status)) return `status ${status} is not declared`;
  if (code === null || ACCESS.has(status) || isGeneric(code)) return null;
  return `code ${code} (${status}) is not declared`;
}

/** The wire code of an error body, wherever its family puts it. */
export function codeOfBody(body: unknown): string | null {
  let parsed = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      parsed = JSON.parse(String(body));
    } catch {
      return null;
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const record = parsed as Record<string, unknown>;
  if (typeof record.code === 'string') return record.code;
  const error = record.error as Record<string, unknown> | undefined;
  if (error && typeof error === 'object' && typeof error.code === 'string') return error.code;
  return null;
}

/** Appends an answer the contract does not declare to `file`. */
export function recordIfUndeclared(file: string, contract: OperationContract, method: string, path: string, status: number, body: unknown) {
  if (status < 400) return;
  const code = codeOfBody(body);
  if (undeclaredReason(contract, status, code) === null) return;
  const answer: UndeclaredAnswer = { operation: contract.name, method, path, status, code };
  appendFileSync(file, `${JSON.stringify(answer)}\n`);
}
