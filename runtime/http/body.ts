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

/** Reads a JSON body; an empty body is `undefined`, malformed JSON is a 400. */
export async function readJsonBody(ctx: Context, limit?: number): Promise<unknown> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return undefined;
  const type = ctx.request.type;
  if (type && type !== 'application/json' && !type.endsWith('+json')) {
    throw new BodyError(415, `content type ${type} is not supported; send application/json`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BodyError(400, 'request body is not valid JSON');
  }
}
