import { createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractInput } from '../../../contracts/operation.js';
import type { coreInitiateDocumentUpload } from '../../../contracts/operations/documents/documents.contract.js';
import { Document, type DocumentData, DOCUMENT_MAX_BYTES } from '../../../contracts/operations/documents/types.js';
import type { Logger } from '../../../runtime/logger.js';
import type { Principal } from '../core/principal.js';
import { recordMapper } from '../core/rows.js';
import { defineStateMachine, requireState, transition } from '../core/state-machine.js';
import { OperationsError } from '../operations.errors.js';
import { DocumentEntity } from './document.entity.js';
import { DocumentError } from './documents.errors.js';
import { documentKeys, DOWNLOAD_SECONDS, type ObjectStore, UPLOAD_SECONDS } from './object-store.js';
import type { ScanVerdict, VirusScanner } from './virus-scanner.js';

const TABLE = '"operations"."document"';
const documentRecord = recordMapper<DocumentData>(Document);

/** The seed's Document rows of States and transitions. */
export const documentStates = defineStateMachine<'pending' | 'ready', 'confirm', 'download'>({
  entity: 'Document',
  table: TABLE,
  column: 'status',
  transitions: { confirm: { from: ['pending'], to: 'ready' } },
  requires: { download: ['ready'] },
});

export type InitiateInput = ContractInput<typeof coreInitiateDocumentUpload>;

/**
 * Documents: a `pending` row and an upload address; confirming moves the upload to its
 * stored key, reads it once to count, hash and scan it, and only a clean, intact file
 * makes the document `ready`; downloads are addresses of stored files only.
 */
export class DocumentsService {
  constructor(
    private readonly store: ObjectStore,
    private readonly scanner: VirusScanner,
    private readonly logger: Logger,
  ) {}

  async initiate(em: EntityManager, principal: Principal, input: InitiateInput) {
    const document = em.create(DocumentEntity, {
      organizationId: principal.organizationId!,
      entityType: input.entityType,
      entityId: input.entityId,
      filename: input.filename,
      mimeType: input.mimeType ?? null,
      bucket: input.bucket,
      createdBy: principal.userId,
    });
    await em.flush();
    const address = await this.store.uploadAddress(documentKeys(document).upload, UPLOAD_SECONDS);
    return {
      document: documentRecord(document),
      upload: { url: address.url, method: 'PUT' as const, expiresAt: address.expiresAt.toISOString() },
    };
  }

  /** The row is locked, so two confirmations of one document run one after the other. */
  async confirm(em: EntityManager, principal: Principal, id: string, sha256?: string): Promise<DocumentData> {
    const row = await em.findOne(DocumentEntity, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) throw OperationsError.notFound('Document');
    requireState(documentStates, 'confirm', row.status);
    const keys = documentKeys(row);
    await this.takeUpload(keys);
    const inspected = await this.inspect(keys.stored);
    if (!inspected.verdict.clean) {
      await this.store.remove(keys.stored);
      this.logger.warn({ documentId: id, signature: inspected.verdict.signature, scanner: this.scanner.name }, 'infected upload deleted');
      throw DocumentError.infected(inspected.verdict.signature);
    }
    if (sha256 && sha256.toLowerCase() !== inspected.sha256) throw DocumentError.checksumMismatch(inspected.sha256);
    const confirmed = await transition(em, documentStates, 'confirm', id, {
      set: { size: inspected.size, sha256: inspected.sha256, confirmed_by: principal.userId },
      setSql: { confirmed_at: 'now()' },
    });
    return documentRecord(confirmed);
  }

  async downloadAddress(em: EntityManager, id: string) {
    const row = await em.findOne(DocumentEntity, id);
    if (!row) throw OperationsError.notFound('Document');
    requireState(documentStates, 'download', row.status, DocumentError.notReady);
    const file = { filename: row.filename, mimeType: row.mimeType ?? null };
    const address = await this.store.downloadAddress(documentKeys(row).stored, file, DOWNLOAD_SECONDS);
    return { id: row.id, url: address.url, expiresAt: address.expiresAt.toISOString(), ...file, size: Number(row.size) };
  }

  /**
   * Moves a fresh upload to the stored key (a newer upload replaces what an earlier,
   * refused confirmation left there); nothing at either key is DOCUMENT_NOT_UPLOADED.
   */
  private async takeUpload(keys: { upload: string; stored: string }): Promise<void> {
    const uploaded = await this.store.size(keys.upload);
    if (uploaded !== null && uploaded > DOCUMENT_MAX_BYTES) {
      await this.store.remove(keys.upload);
      throw DocumentError.tooLarge();
    }
    if (uploaded !== null) await this.store.move(keys.upload, keys.stored);
    else if ((await this.store.size(keys.stored)) === null) throw DocumentError.notUploaded();
  }

  /** One read of the stored file: its size, its SHA-256 and the scanner's verdict. */
  private async inspect(key: string): Promise<{ size: number; sha256: string; verdict: ScanVerdict }> {
    const hash = createHash('sha256');
    let size = 0;
    const store = this.store;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const chunk of store.read(key)) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    }
    const verdict = await this.scanner.scan(counted());
    return { size, sha256: hash.digest('hex'), verdict };
  }
}
