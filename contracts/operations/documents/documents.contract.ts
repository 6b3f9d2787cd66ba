import { z } from 'zod';
import { members, publicAccess } from '../../access.js';
import { defineOperation, type WireRequest } from '../../operation.js';
import { OperationsErrorCode } from '../errors.js';
import { ops } from '../fields.js';
import { DocumentErrorCode as Code } from './errors.js';
import {
  attachmentDisposition,
  Document,
  DOCUMENT_BUCKETS,
  DOCUMENT_MAX_BYTES,
  DocumentDownload,
  DocumentUploadStarted,
  entityTypeField,
} from './types.js';

/**
 * Documents (seed 002, Documents): a document is created `pending` with a presigned
 * upload address, confirmed `ready` once its file is there, intact and clean, and then
 * read through a temporary download address. With the local store, the addresses are
 * two routes of ours, authorized by their signature alone.
 */

const base = { service: 'operations', tags: ['core: documents'] } as const;
const PATH = '/api/v1/core/documents';
const WRITERS = members(['Engineer', 'Mechanic', 'Foreman', 'CEO'], { objectScope: false });

/** An address the service gives relative to this API (the local store's) made absolute for the caller. */
const absolute = (url: string, request: WireRequest) => (url.startsWith('/') ? `${request.baseUrl}${url}` : url);

export const coreInitiateDocumentUpload = defineOperation({
  ...base,
  name: 'coreInitiateDocumentUpload',
  kind: 'mutation',
  summary: 'Initiate a document upload',
  description: `The document starts \`pending\`; \`PUT\` the file (at most ${DOCUMENT_MAX_BYTES} bytes) to \`upload.url\` within 15 minutes, then confirm. Over GraphQL, an address of this API is given as a path.`,
  access: WRITERS,
  idempotency: 'required',
  input: {
    body: {
      entityType: entityTypeField(),
      entityId: ops.refBy('entityType'),
      filename: ops.text(1, 255),
      mimeType: ops.text(1, 200).optional(),
      bucket: z.enum(DOCUMENT_BUCKETS).default('documents'),
    },
  },
  output: DocumentUploadStarted,
  rest: {
    method: 'POST',
    path: PATH,
    status: 201,
    respond: (data, request) => ({ body: { ...data, upload: { ...data.upload, url: absolute(data.upload.url, request) } } }),
  },
});

export const coreConfirmDocumentUpload = defineOperation({
  ...base,
  name: 'coreConfirmDocumentUpload',
  kind: 'mutation',
  summary: 'Confirm a document upload',
  description:
    'The file must be there; its size is recorded, its SHA-256 compared with `sha256` when given, and it must pass the virus scan; then the document is `ready`. An infected file is deleted and the document never becomes `ready`.',
  access: WRITERS,
  idempotency: 'required',
  input: {
    path: { id: ops.id() },
    body: {
      sha256: z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, { error: 'must be 64 hex digits' })
        .optional(),
    },
  },
  output: Document,
  rest: { method: 'POST', path: `${PATH}/:id/confirm` },
  errors: [
    OperationsErrorCode.RECORD_NOT_FOUND,
    OperationsErrorCode.STATE_CONFLICT,
    Code.DOCUMENT_NOT_UPLOADED,
    Code.DOCUMENT_TOO_LARGE,
    Code.DOCUMENT_CHECKSUM_MISMATCH,
    Code.DOCUMENT_INFECTED,
    Code.DOCUMENT_STORAGE_UNAVAILABLE,
    Code.DOCUMENT_SCAN_UNAVAILABLE,
  ],
});

export const coreDocumentDownload = defineOperation({
  ...base,
  name: 'coreDocumentDownload',
  kind: 'query',
  summary: 'Download address of a document',
  description: 'A temporary (5 minutes) address of the file of a `ready` document.',
  access: members('any', { objectScope: false }),
  input: { path: { id: ops.id() } },
  output: DocumentDownload,
  rest: {
    method: 'GET',
    path: `${PATH}/:id/download`,
    headers: { 'Cache-Control': 'no-store' },
    respond: (data, request) => ({ body: { ...data, url: absolute(data.url, request) } }),
  },
  errors: [OperationsErrorCode.RECORD_NOT_FOUND, Code.DOCUMENT_NOT_READY],
});

const token = z.string().min(1).max(4096).describe('The signed token of the address.');
const URL_ERRORS = [Code.DOCUMENT_URL_INVALID, Code.DOCUMENT_URL_EXPIRED];

export const coreDocumentUploadContent = defineOperation({
  ...base,
  name: 'coreDocumentUploadContent',
  kind: 'stream',
  summary: 'Upload a document’s file (local store)',
  description:
    'The presigned upload address of the local object store: the body is the file, read as it arrives. The signature is the authorization; an altered or expired address is refused.',
  access: publicAccess(),
  input: { path: { token } },
  output: z.object({ size: z.int() }).meta({ id: 'DocumentContentStored' }),
  rest: { method: 'PUT', path: `${PATH}/uploads/:token`, body: 'upload', bodyLimit: DOCUMENT_MAX_BYTES },
  errors: [...URL_ERRORS, Code.DOCUMENT_TOO_LARGE],
});

const DocumentContent = z
  .object({ filename: z.string(), mimeType: z.string().nullable(), base64: z.string() })
  .meta({ id: 'DocumentContent' });

export const coreDocumentContent = defineOperation({
  ...base,
  name: 'coreDocumentContent',
  kind: 'stream',
  summary: 'Download a document’s file (local store)',
  description: 'The download address of the local object store: the file itself. An altered or expired address is refused.',
  access: publicAccess(),
  input: { path: { token } },
  output: DocumentContent,
  rest: {
    method: 'GET',
    path: `${PATH}/files/:token`,
    contentType: 'application/octet-stream',
    response: z.string().describe('The file.'),
    respond: (data) => ({
      body: Buffer.from(data.base64, 'base64'),
      type: data.mimeType ?? 'application/octet-stream',
      headers: {
        'Content-Disposition': attachmentDisposition(data.filename),
        'Cache-Control': 'private, no-store',
        // An uploaded file is never run as a page of this origin, whatever type it claims.
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      },
    }),
  },
  errors: [...URL_ERRORS, OperationsErrorCode.RECORD_NOT_FOUND],
});

export const DOCUMENT_CONTRACTS = [
  coreInitiateDocumentUpload,
  coreConfirmDocumentUpload,
  coreDocumentDownload,
  coreDocumentUploadContent,
  coreDocumentContent,
] as const;
