import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'koa';
import { CommonErrorCode, EdgeErrorCode } from '../contracts/errors.js';
import { familyOf } from '../contracts/families.js';
import { FacadeError } from '../edge/facade-error.js';
import { ERROR_MAPPERS } from '../rest-facade/families.js';

interface ParseError extends Error {
  readonly code?: string;
  /** What Node had read of the request when it gave up. */
  readonly rawPacket?: Buffer;
}

/** The path of a raw request's first line, as far as it can be read; `/` when it cannot. */
export function rawPathOf(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 16_384).toString('latin1').split('\r\n', 1)[0] ?? '';
  const target = line.split(' ')[1] ?? '/';
  return target.startsWith('/') ? target.split('?', 1)[0]! : '/';
}

/** What the client did wrong, for the HTTP parser's errors; undefined for anything else (timeouts, resets). */
function failureOf(error: ParseError): FacadeError | undefined {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return FacadeError.of(EdgeErrorCode.HEADERS_TOO_LARGE, 'request headers are larger than the server accepts');
  }
  if (error.code?.startsWith('HPE_')) {
    return FacadeError.of(CommonErrorCode.BAD_USER_INPUT, `the request could not be read: ${error.message.replace(/^Parse Error: /, '')}`);
  }
  return undefined;
}

/** The body for a path: GraphQL's error list on GraphQL and stream endpoints, else the family's documented shape. */
function bodyFor(path: string, failure: FacadeError): { status: number; type: string; body: unknown } {
  if (path.startsWith('/graphql') || path.startsWith('/streams/')) {
    return {
      status: failure.status,
      type: 'application/json',
      body: { errors: [{ message: failure.message, extensions: { code: failure.code } }] },
    };
  }
  // A mapper reads only the path of its context; there is no Koa context before a request exists.
  const wire = ERROR_MAPPERS[familyOf(path)](failure, { path } as Context);
  return { status: wire.status ?? failure.status, type: wire.type ?? 'application/json', body: wire.body };
}

/** The request a connection is in the middle of, when the parser fails inside it (a body cut short). */
export interface CurrentRequest {
  readonly url: string;
  readonly answered: boolean;
}

/**
 * Node's `clientError`: a request the HTTP parser refused (headers too large, bad bytes in the
 * request line, a body cut short) is answered in the JSON shape of the family its path belongs
 * to, instead of Node's empty body; anything else gets Node's bare status line.
 */
export function answerClientError(error: ParseError, socket: Duplex, current?: CurrentRequest): void {
  if (error.code === 'ECONNRESET' || !socket.writable || current?.answered) {
    socket.destroy();
    return;
  }
  const failure = failureOf(error);
  if (!failure) {
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
    return;
  }
  const path = current ? current.url.split('?', 1)[0]! : rawPathOf(error.rawPacket);
  const { status, type, body } = bodyFor(path, failure);
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${type}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
