import { DOCUMENT_MAX_BYTES } from '../../../contracts/operations/documents/types.js';
import { OperationsError } from '../operations.errors.js';
import type { LocalObjectStore } from './local-object-store.js';
import type { UrlSigner } from './signed-url.js';

/**
 * The two routes behind the local store's addresses: the signature is the whole
 * authorization, checked before a byte is read or written. With an S3 store configured
 * there are no such addresses, and the routes answer 404.
 */
export class DocumentFilesService {
  constructor(
    private readonly signer: UrlSigner,
    private readonly local: LocalObjectStore | undefined,
  ) {}

  async upload(token: string, body: AsyncIterable<Uint8Array> | undefined): Promise<{ size: number }> {
    const grant = this.signer.verify(token, 'PUT');
    if (!this.local || !body) throw OperationsError.notFound('Document');
    return { size: await this.local.write(grant.key, body, DOCUMENT_MAX_BYTES) };
  }

  async content(token: string): Promise<{ filename: string; mimeType: string | null; base64: string }> {
    const grant = this.signer.verify(token, 'GET');
    const content = await this.local?.content(grant.key);
    if (!content) throw OperationsError.notFound('Document');
    return { filename: grant.filename ?? 'document', mimeType: grant.mimeType ?? null, base64: content.toString('base64') };
  }
}
