import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback HTTP server answering with `handle`; `url` is its origin. */
export async function loopbackServer(
  handle: (request: IncomingMessage, body: string, response: ServerResponse) => void,
): Promise<{ url: string; server: Server; stop: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, server, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A port free right now on loopback (for a stack whose address must be known before it starts). */
export async function freePort(): Promise<number> {
  const probe = await loopbackServer((_request, _body, response) => response.end());
  const port = Number(new URL(probe.url).port);
  await probe.stop();
  return port;
}

/**
 * A Turnstile-compatible `siteverify` endpoint: `success` only for `secret` and the token
 * `pass`; each token works once, like the real one.
 */
export async function challengeVerifier(secret: string) {
  const spent = new Set<string>();
  return loopbackServer((_request, body, response) => {
    const form = new URLSearchParams(body);
    const token = form.get('response') ?? '';
    const success = form.get('secret') === secret && token.startsWith('pass') && !spent.has(token);
    spent.add(token);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(success ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
  });
}
