import { connect, type Socket } from 'node:net';
import { DocumentError } from './documents.errors.js';
import type { ScanVerdict, VirusScanner } from './virus-scanner.js';

/** How long readiness waits for clamd's PONG. */
const PING_TIMEOUT_MS = 3000;
/** Largest piece sent in one INSTREAM chunk. */
const PIECE = 64 * 1024;

/** The reply `clamd` ends with a NUL (the `z` form of its commands), or the error that ended the connection. */
function replyOf(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (data: Buffer) => {
      text += data.toString('utf8');
      if (text.includes('\0')) resolve(text.slice(0, text.indexOf('\0')));
    });
    socket.once('end', () => (text ? resolve(text) : reject(new Error('clamd closed the connection without a reply'))));
    socket.on('error', (error) => (text ? resolve(text) : reject(error)));
  });
}

/** `stream: OK`, `stream: <signature> FOUND`, or anything else (an error of clamd's). */
function verdictOf(reply: string): ScanVerdict {
  const text = reply.trim();
  if (text === 'stream: OK') return { clean: true };
  const found = /^stream: (.+) FOUND$/.exec(text);
  if (found) return { clean: false, signature: found[1]! };
  throw DocumentError.scanUnavailable(new Error(`clamd answered: ${text}`));
}

/**
 * ClamAV's daemon over TCP (`CLAMD_URL`, e.g. `tcp://127.0.0.1:3310`): the content is
 * streamed with `zINSTREAM` as it is read — length-prefixed pieces, then a zero length —
 * and the verdict is clamd's one-line reply. clamd not answering is DOCUMENT_SCAN_UNAVAILABLE.
 */
export class ClamdScanner implements VirusScanner {
  readonly name = 'clamd';
  private readonly host: string;
  private readonly port: number;

  constructor(
    url: string,
    private readonly timeoutMs = 60_000,
  ) {
    const parsed = new URL(url);
    this.host = parsed.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(parsed.port || 3310);
  }

  async scan(content: AsyncIterable<Uint8Array>): Promise<ScanVerdict> {
    const { socket, reply } = await this.open('zINSTREAM\0');
    try {
      for await (const chunk of content) {
        for (let offset = 0; offset < chunk.length; offset += PIECE) {
          const piece = chunk.subarray(offset, offset + PIECE);
          const length = Buffer.alloc(4);
          length.writeUInt32BE(piece.length);
          // clamd may answer (and close) before the end, e.g. past its stream limit: its reply wins.
          if (!socket.write(Buffer.concat([length, piece]))) await Promise.race([new Promise((done) => socket.once('drain', done)), reply]);
          if (socket.destroyed) return verdictOf(await reply);
        }
      }
      socket.write(Buffer.alloc(4));
      return verdictOf(await reply);
    } catch (error) {
      if (error instanceof DocumentError) throw error;
      throw DocumentError.scanUnavailable(error);
    } finally {
      socket.destroy();
    }
  }

  async check(): Promise<{ up: boolean; detail: string }> {
    const { socket, reply } = await this.open('zPING\0', PING_TIMEOUT_MS);
    try {
      const answer = (await reply).trim();
      return { up: answer === 'PONG', detail: `clamd at ${this.host}:${this.port} answered ${answer}` };
    } finally {
      socket.destroy();
    }
  }

  /** A connection with `command` sent, and its reply to come. */
  private open(command: string, timeoutMs = this.timeoutMs): Promise<{ socket: Socket; reply: Promise<string> }> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port });
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`clamd did not answer within ${timeoutMs} ms`)));
      const reply = replyOf(socket);
      reply.catch(() => undefined);
      socket.once('error', (error) => reject(DocumentError.scanUnavailable(error)));
      socket.once('connect', () => {
        socket.write(command);
        resolve({ socket, reply });
      });
    });
  }
}
