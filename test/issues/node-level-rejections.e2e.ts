import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../support/library-keys.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ ADMIN_TOKEN });
});
afterAll(async () => {
  await stack?.stop();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes raw bytes to the server (then half-closes when `finish`), and reads everything it answers. */
function raw(bytes: string | Buffer, finish = false): Promise<RawAnswer> {
  const { port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
      socket.destroy();
    });
    socket.write(bytes, () => {
      if (finish) socket.end();
    });
  });
}

const hugeHeader = `X-Huge: ${'a'.repeat(20_000)}\r\n`;

describe('requests Node refuses before the app sees them', () => {
  it('headers too large: 431 in the library shape under /v1', async () => {
    const answer = await raw(`GET /v1/books HTTP/1.1\r\nHost: x\r\n${hugeHeader}\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        message: 'request headers are larger than the server accepts',
        type: 'api_error',
        code: 'headers_too_large',
        param: null,
        details: null,
      },
    });
  });

  it('headers too large: 431 as application/problem+json under /api/v1', async () => {
    const answer = await raw(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\n${hugeHeader}\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE', instance: '/api/v1/health' });
  });

  it('bad bytes in the path: 400 in the admin shape under /admin', async () => {
    const answer = await raw(Buffer.from(`GET /admin/ke\u0001ys HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1'));
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body) as { detail: string };
    expect(body.detail).toMatch(/^the request could not be read/);
  });

  it('bad bytes in the path of /graphql: 400 as a GraphQL error list', async () => {
    const answer = await raw(Buffer.from(`POST /graphql\u0001 HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1'));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ errors: [{ extensions: { code: 'BAD_USER_INPUT' } }] });
  });

  it('a body shorter than its Content-Length, then the end of input: 400 in the family shape', async () => {
    const answer = await raw(
      `POST /admin/keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-admin-token: ${ADMIN_TOKEN}\r\nContent-Length: 100\r\n\r\n{"email":`,
      true,
    );
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toHaveProperty('detail');
  });
});
