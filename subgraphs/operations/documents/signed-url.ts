import { createHmac, timingSafeEqual } from 'node:crypto';
import { DocumentError } from './documents.errors.js';

/**
 * The addresses of the local object store: a grant (method, object key, expiry, and for
 * downloads the file's name and type) and its HMAC-SHA256 under a key of their own,
 * both base64url in one path segment. An altered grant or signature is invalid; a valid
 * one past its expiry is expired.
 */

export interface UrlGrant {
  readonly method: 'PUT' | 'GET';
  readonly key: string;
  /** Seconds since the epoch. */
  readonly expires: number;
  readonly filename?: string;
  readonly mimeType?: string | null;
}

export class UrlSigner {
  constructor(private readonly secret: Buffer) {}

  sign(grant: UrlGrant): string {
    const payload = Buffer.from(JSON.stringify(grant)).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The grant of a token for `method`, or DOCUMENT_URL_INVALID / DOCUMENT_URL_EXPIRED. */
  verify(token: string, method: UrlGrant['method'], now = Date.now()): UrlGrant {
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) throw DocumentError.urlInvalid();
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw DocumentError.urlInvalid();
    const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as UrlGrant;
    if (grant.method !== method || typeof grant.key !== 'string') throw DocumentError.urlInvalid();
    if (!(grant.expires * 1000 > now)) throw DocumentError.urlExpired();
    return grant;
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest();
  }
}
