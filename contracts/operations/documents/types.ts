import { z } from 'zod';
import { ops, timestamps } from '../fields.js';

/** Documents in object storage (seed 002, Resources: Document; Documents). */

/** The largest document, in bytes; also the default stream limit of ClamAV's `clamd`. */
export const DOCUMENT_MAX_BYTES = 25 * 1024 * 1024;

export const DOCUMENT_BUCKETS = ['documents', 'hse-photos', 'reports', 'asset-passports'] as const;

export const DocumentStatus = z.enum(['pending', 'ready']).meta({ id: 'DocumentStatus' });

export const Document = z
  .object({
    id: z.uuid(),
    status: DocumentStatus,
    size: z.int().nullable().describe('Bytes; known once the upload is confirmed.'),
    sha256: z.string().nullable().describe('Hex SHA-256 of the content; known once the upload is confirmed.'),
    entityType: z.string().describe('What the document belongs to, as `module.entity`.'),
    entityId: z.uuid(),
    filename: z.string(),
    mimeType: z.string().nullable(),
    bucket: z.enum(DOCUMENT_BUCKETS).describe('`documents`, `hse-photos`, `reports` or `asset-passports`.'),
    createdBy: z.uuid().nullable(),
    confirmedAt: z.string().nullable().describe('ISO 8601.'),
    ...timestamps,
  })
  .meta({ id: 'Document', description: 'A file attached to a record, kept in object storage.' });

export const PresignedUpload = z
  .object({
    url: z.string().describe('Send the file’s bytes as the body of a `PUT` to this address before it expires.'),
    method: z.literal('PUT'),
    expiresAt: z.string().describe('ISO 8601.'),
  })
  .meta({ id: 'PresignedUpload', description: 'Where to upload the document’s file.' });

export const DocumentUploadStarted = z
  .object({ document: Document, upload: PresignedUpload })
  .meta({ id: 'DocumentUploadStarted', description: 'A document in `pending` and where to upload its file.' });

export const DocumentDownload = z
  .object({
    id: z.uuid(),
    url: z.string().describe('`GET` this address for the file before it expires.'),
    expiresAt: z.string().describe('ISO 8601.'),
    filename: z.string(),
    mimeType: z.string().nullable(),
    size: z.int(),
  })
  .meta({ id: 'DocumentDownload', description: 'A temporary address of a ready document’s file.' });

/** `module.entity`: lower-case words joined by dots. */
export const entityTypeField = () =>
  ops.text(1, 100).refine((value) => /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)+$/i.test(value), { error: 'must be dotted, as module.entity' });

/** `Content-Disposition: attachment` with an ASCII fallback and the exact name (RFC 6266). */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

export type DocumentData = z.output<typeof Document>;
