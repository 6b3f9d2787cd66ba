import { defineErrorCodes } from '../../errors.js';

/** Codes of documents in object storage. */
export const DocumentErrorCode = defineErrorCodes('operations', {
  DOCUMENT_NOT_UPLOADED: { status: 409, description: 'Nothing was uploaded to the document’s upload address yet.' },
  DOCUMENT_NOT_READY: { status: 409, description: 'The document is not `ready`: its upload was not confirmed.' },
  DOCUMENT_TOO_LARGE: { status: 413, description: 'The uploaded file is larger than a document may be (25 MiB).' },
  DOCUMENT_CHECKSUM_MISMATCH: { status: 422, description: 'The uploaded file’s SHA-256 differs from the `sha256` given.' },
  DOCUMENT_INFECTED: {
    status: 422,
    description: 'The virus scan found malware in the uploaded file; the file is deleted and the document stays `pending`.',
  },
  DOCUMENT_URL_INVALID: { status: 403, description: 'The upload or download address is malformed or was altered.' },
  DOCUMENT_URL_EXPIRED: { status: 403, description: 'The upload or download address has expired; ask for a new one.' },
  DOCUMENT_STORAGE_UNAVAILABLE: { status: 503, description: 'The object storage did not answer.' },
  DOCUMENT_SCAN_UNAVAILABLE: {
    status: 503,
    description: 'The virus scanner did not answer; the upload stays `pending`, confirm again later.',
  },
});
