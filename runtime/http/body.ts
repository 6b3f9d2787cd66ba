import type { Context } from 'koa';

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

/** Reads the raw request body, refusing anything past `limit` bytes. */
export async function readRawBody(ctx: Context, limit = 1_048_576): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw new BodyError(413, `request body exceeds ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyError(413, `request body exceeds ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Deepest nesting of arrays and objects a JSON body may have; every reader of JSON bodies enforces it. */
export const JSON_MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found in one pass over
 * the bytes before parsing, because deep values overflow the stack of whatever walks
 * them later. Only structure outside strings counts; the text need not be valid JSON.
 */
export function nestsDeeperThan(text: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const byte = text[index]!;
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPEN.has(byte)) {
      depth += 1;
      if (depth > max) return true;
    } else if (CLOSE.has(byte)) {
      depth -= 1;
    }
  }
  return false;
}

/** Parses JSON text as a request body: too deep or malformed is a 400. */
function parseJsonBody(raw: Uint8Array): unknown {
  if (nestsDeeperThan(raw, JSON_MAX_DEPTH)) throw new BodyError(400, `request body is nested deeper than ${JSON_MAX_DEPTH} levels`);
  try {
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch {
    throw new BodyError(400, 'request body is not valid JSON');
  }
}

/** Reads a JSON body; an empty body is `undefined`, malformed or too deeply nested JSON is a 400. */
export async function readJsonBody(ctx: Context, limit?: number): Promise<unknown> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return undefined;
  const type = ctx.request.type;
  if (type && type !== 'application/json' && !type.endsWith('+json')) {
    throw new BodyError(415, `content type ${type} is not supported; send application/json`);
  }
  return parseJsonBody(raw);
}
