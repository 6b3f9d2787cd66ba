/**
 * Where documents' files live, behind one interface: an S3-compatible store, or the
 * local store under `DATA_DIR` whose addresses are routes of this API. A document's file
 * is uploaded to its upload key and moved to its stored key when the upload is
 * confirmed, so nothing written through an upload address is ever served unscanned.
 */

export interface Address {
  readonly url: string;
  readonly expiresAt: Date;
}

export interface StoredFile {
  readonly filename: string;
  readonly mimeType: string | null;
}

export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** A presigned address to `PUT` the object at `key`. */
  uploadAddress(key: string, seconds: number): Promise<Address>;
  /** A presigned address to `GET` the object at `key` as a download named `file.filename`. */
  downloadAddress(key: string, file: StoredFile, seconds: number): Promise<Address>;
  /** The object's size, or null when there is none. */
  size(key: string): Promise<number | null>;
  read(key: string): AsyncIterable<Uint8Array>;
  /** Replaces the object at `to` with the one at `from`, which is then gone. */
  move(from: string, to: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Readiness: whether the store answers and accepts writes. */
  check(): Promise<{ up: boolean; detail: string }>;
}

/** The keys of a document's file: where it is uploaded, and where it is kept once confirmed. */
export function documentKeys(document: { readonly organizationId: string; readonly bucket: string; readonly id: string }) {
  const path = `${document.bucket}/${document.organizationId}/${document.id}`;
  return { upload: `uploads/${path}`, stored: `stored/${path}` };
}

/** Keys are ours (buckets and UUIDs); anything else never reaches a store. */
export const OBJECT_KEY = /^(uploads|stored)\/[a-z-]+\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

/** How long addresses live. */
export const UPLOAD_SECONDS = 15 * 60;
export const DOWNLOAD_SECONDS = 5 * 60;
