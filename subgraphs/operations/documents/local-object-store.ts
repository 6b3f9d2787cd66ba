import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DocumentError } from './documents.errors.js';
import { OBJECT_KEY, type Address, type ObjectStore, type StoredFile } from './object-store.js';
import type { UrlSigner } from './signed-url.js';

/** Routes of this API that serve the local store's addresses (contracts/operations/documents). */
const UPLOADS = '/api/v1/core/documents/uploads';
const FILES = '/api/v1/core/documents/files';

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Objects as files under `DATA_DIR/documents`; its presigned addresses are signed
 * routes of this API (absolute with `PUBLIC_BASE_URL`, else paths the REST answer
 * completes with the request's origin). An upload is written beside its key and renamed
 * into place when complete, so a partial file is never seen.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local';
  private readonly root: string;

  constructor(
    dataDir: string,
    private readonly signer: UrlSigner,
    private readonly baseUrl = '',
  ) {
    this.root = resolve(dataDir, 'documents');
  }

  private path(key: string): string {
    if (!OBJECT_KEY.test(key)) throw DocumentError.urlInvalid();
    return join(this.root, key);
  }

  private address(route: string, grant: Parameters<UrlSigner['sign']>[0]): Address {
    return { url: `${this.baseUrl}${route}/${this.signer.sign(grant)}`, expiresAt: new Date(grant.expires * 1000) };
  }

  async uploadAddress(key: string, seconds: number): Promise<Address> {
    return this.address(UPLOADS, { method: 'PUT', key, expires: Math.floor(Date.now() / 1000) + seconds });
  }

  async downloadAddress(key: string, file: StoredFile, seconds: number): Promise<Address> {
    const expires = Math.floor(Date.now() / 1000) + seconds;
    return this.address(FILES, { method: 'GET', key, expires, filename: file.filename, mimeType: file.mimeType });
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.path(key))).size;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  read(key: string): AsyncIterable<Uint8Array> {
    return createReadStream(this.path(key));
  }

  async move(from: string, to: string): Promise<void> {
    await mkdir(dirname(this.path(to)), { recursive: true });
    await rename(this.path(from), this.path(to));
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  /** Writes and removes a probe file: permissions alone say too little (a read-only mount, a full disk, a file in the way). */
  async check(): Promise<{ up: boolean; detail: string }> {
    await mkdir(this.root, { recursive: true });
    const probe = join(this.root, `.ready-${randomUUID()}`);
    try {
      await writeFile(probe, 'ready');
    } finally {
      await rm(probe, { force: true });
    }
    return { up: true, detail: `local store at ${this.root} is writable` };
  }

  /** Writes an upload to `key`: at most `max` bytes (else nothing is kept), in place only once complete. */
  async write(key: string, body: AsyncIterable<Uint8Array>, max: number): Promise<number> {
    const target = this.path(key);
    const partial = `${target}.${randomUUID()}.part`;
    await mkdir(dirname(target), { recursive: true });
    let size = 0;
    async function* limited(): AsyncIterable<Uint8Array> {
      for await (const chunk of body) {
        size += chunk.length;
        if (size > max) throw DocumentError.tooLarge();
        yield chunk;
      }
    }
    try {
      // pipeline destroys the file stream on any failure and waits for it, so no write lands after.
      await pipeline(limited(), createWriteStream(partial));
      await rename(partial, target);
      return size;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  /** The whole file at `key`, or null when there is none. */
  async content(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }
}
