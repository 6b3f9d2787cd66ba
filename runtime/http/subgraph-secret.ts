import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { CommonErrorCode, wireCode } from '../../contracts/errors.js';

/** The header the gateway proves itself with to subgraph servers when `SUBGRAPH_SECRET` is set. */
export const SUBGRAPH_SECRET_HEADER = 'x-subgraph-secret';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * With a secret, a subgraph server answers only requests that carry it (compared in constant
 * time: both sides are hashed first, so neither content nor length leaks); any other is a 401.
 * Without one it answers everyone, as a server on a private network would.
 */
export function requireSubgraphSecret(secret: string | undefined): Middleware {
  const expected = secret === undefined ? undefined : digest(secret);
  return async (ctx, next) => {
    if (expected) {
      const presented = ctx.get(SUBGRAPH_SECRET_HEADER);
      if (!presented || !timingSafeEqual(digest(presented), expected)) {
        ctx.status = 401;
        ctx.body = {
          errors: [
            { message: 'this subgraph server answers only its gateway', extensions: { code: wireCode(CommonErrorCode.UNAUTHENTICATED) } },
          ],
        };
        return;
      }
    }
    await next();
  };
}
