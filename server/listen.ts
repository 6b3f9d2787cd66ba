import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { answerClientError } from './client-error.js';

export interface Listening {
  readonly server: Server;
  readonly port: number;
  /** Stops accepting, lets in-flight requests finish (up to `timeoutMs`), then closes what is left. */
  close(timeoutMs: number): Promise<void>;
}

/**
 * Tracks how many requests each connection has in flight, so shutdown can drop every
 * connection that has none — including ones a client opened and never used, which
 * Node's `closeIdleConnections` leaves open — while in-flight requests finish.
 */
function trackConnections(server: Server): { dropUnused(): void } {
  const inFlight = new Map<Socket, number>();
  let draining = false;
  server.on('connection', (socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    if (draining) response.setHeader('Connection', 'close');
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (draining && left === 0) socket.destroySoon();
    });
  });
  return {
    dropUnused() {
      draining = true;
      for (const [socket, count] of inFlight) if (count === 0) socket.destroy();
    },
  };
}

export async function listen(app: Koa, port: number, host: string): Promise<Listening> {
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  const connections = trackConnections(server);
  // The request each connection is in, so a body cut short is answered in its path's family.
  const current = new WeakMap<Duplex, { request: IncomingMessage; response: ServerResponse }>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => current.set(request.socket, { request, response }));
  server.on('clientError', (error: Error, socket: Duplex) => {
    const inFlight = current.get(socket);
    answerClientError(error, socket, inFlight && { url: inFlight.request.url ?? '/', answered: inFlight.response.headersSent });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: (timeoutMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        connections.dropUnused();
      }),
  };
}
