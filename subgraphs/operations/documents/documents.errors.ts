import { DomainError } from '../../../contracts/errors.js';
import { DocumentErrorCode as Code } from '../../../contracts/operations/documents/errors.js';
import { DOCUMENT_MAX_BYTES } from '../../../contracts/operations/documents/types.js';

/** Transport-free errors of documents in object storage. */
export class DocumentError extends DomainError {
  static notUploaded(): DocumentError {
    return new DocumentError(
      Code.DOCUMENT_NOT_UPLOADED,
      'Nothing was uploaded for this document yet; PUT the file to its upload address first.',
    );
  }

  static notReady(): DocumentError {
    return new DocumentError(Code.DOCUMENT_NOT_READY, 'The document is not ready: its upload was not confirmed.');
  }

  static tooLarge(): DocumentError {
    return new DocumentError(Code.DOCUMENT_TOO_LARGE, `A document may be at most ${DOCUMENT_MAX_BYTES} bytes.`);
  }

  static checksumMismatch(actual: string): DocumentError {
    return new DocumentError(Code.DOCUMENT_CHECKSUM_MISMATCH, `The uploaded file's SHA-256 is ${actual}, not the one given.`, {
      param: 'sha256',
    });
  }

  static infected(signature: string): DocumentError {
    return new DocumentError(Code.DOCUMENT_INFECTED, `The virus scan found ${signature}; the file was deleted.`);
  }

  static urlInvalid(): DocumentError {
    return new DocumentError(Code.DOCUMENT_URL_INVALID, 'This address is not valid.');
  }

  static urlExpired(): DocumentError {
    return new DocumentError(Code.DOCUMENT_URL_EXPIRED, 'This address has expired.');
  }

  static storageUnavailable(cause: unknown): DocumentError {
    return new DocumentError(Code.DOCUMENT_STORAGE_UNAVAILABLE, 'The object storage is unavailable.', { cause });
  }

  static scanUnavailable(cause: unknown): DocumentError {
    return new DocumentError(Code.DOCUMENT_SCAN_UNAVAILABLE, 'The virus scanner is unavailable; confirm again later.', { cause });
  }
}
