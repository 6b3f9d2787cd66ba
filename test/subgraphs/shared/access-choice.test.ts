import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACCESS_KINDS_HEADER, researchKey, researchUser, type Access } from '../../../contracts/access.js';
import { defineOperation } from '../../../contracts/operation.js';
import type { SubgraphContext } from '../../../subgraphs/shared/context.js';
import { implement, type Guard } from '../../../subgraphs/shared/contracts/implementation.js';
import { OperationPipeline } from '../../../subgraphs/shared/contracts/pipeline.js';
import { ResearchKeyGuard } from '../../../subgraphs/research/access/research-key-guard.js';
import { WorkspaceUserGuard } from '../../../subgraphs/research/access/workspace-user-guard.js';

/**
 * An operation declaring several access kinds is judged by the first kind whose credential
 * the request carries, else by the first kind listed; a route may take only some kinds.
 * The guards here tell their credential by the research guards' own `presents`.
 */

const keys = new ResearchKeyGuard();
const users = new WorkspaceUserGuard({} as never, () => 'http://localhost', {} as never);

/** A guard that admits its credential by name and refuses anything else as its own kind would. */
function guard(kind: 'researchKey' | 'researchUser', presents: (ctx: SubgraphContext) => boolean): Guard {
  const refuse = async (ctx: SubgraphContext) => {
    if (!presents(ctx)) throw new Error(`${kind}: no credential of mine`);
  };
  return {
    presents,
    refuse,
    admit: async (ctx: SubgraphContext, access: Access) => {
      await refuse(ctx);
      return { kind, access: access.kind };
    },
  };
}

const GUARDS = {
  researchKey: guard('researchKey', (ctx) => keys.presents(ctx)),
  researchUser: guard('researchUser', (ctx) => users.presents(ctx)),
};

const either = defineOperation({
  service: 'research',
  name: 'researchEither',
  kind: 'query',
  summary: 'x',
  access: [researchKey('threads_read'), researchUser()],
  output: z.string(),
  rest: [
    { method: 'GET', path: '/v1/either', accepts: ['researchKey'] },
    { method: 'GET', path: '/api/chat/either', accepts: ['researchUser'] },
  ],
});

const pipeline = new OperationPipeline([either], {
  implementations: [implement(either, (_input, { caller }) => JSON.stringify(caller))],
  guards: GUARDS,
});

const KEY = `Bearer rk_test_${'a'.repeat(43)}`;
const TOKEN = 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';

const context = (headers: Record<string, string | undefined>): SubgraphContext =>
  ({ headers, extensions: {}, requestId: 'test', clientIp: undefined }) as unknown as SubgraphContext;

const callerOf = async (headers: Record<string, string | undefined>) =>
  JSON.parse(String(await pipeline.run(either, context(headers), {}))) as { kind: string };

describe('an operation with several access kinds', () => {
  it('admits a research key with the key guard', async () => {
    expect(await callerOf({ authorization: KEY })).toEqual({ kind: 'researchKey', access: 'researchKey' });
  });

  it('admits a signed-in user’s access token with the user guard', async () => {
    expect(await callerOf({ authorization: TOKEN })).toEqual({ kind: 'researchUser', access: 'researchUser' });
  });

  it('refuses a call without credentials as its first kind does', async () => {
    await expect(callerOf({})).rejects.toThrow('researchKey: no credential of mine');
    expect(pipeline.accessFor(either, context({ authorization: 'Bearer not-a-key-nor-a-token' })).kind).toBe('researchKey');
  });

  it('judges a call whose credentials two kinds recognise by the first kind listed', () => {
    const both = new OperationPipeline([either], {
      implementations: [implement(either, () => 'x')],
      guards: { researchKey: guard('researchKey', () => true), researchUser: guard('researchUser', () => true) },
    });
    expect(both.accessFor(either, context({ authorization: TOKEN })).kind).toBe('researchKey');
  });

  it('takes only the kinds the edge names for the route, refusing another credential as the route’s kind', async () => {
    const userRoute = { [ACCESS_KINDS_HEADER]: 'researchEither=researchUser' };
    expect(await callerOf({ ...userRoute, authorization: TOKEN })).toEqual({ kind: 'researchUser', access: 'researchUser' });
    await expect(callerOf({ ...userRoute, authorization: KEY })).rejects.toThrow('researchUser: no credential of mine');
    await expect(callerOf({ ...userRoute })).rejects.toThrow('researchUser: no credential of mine');
    // Named for another operation, the header limits nothing here.
    expect(await callerOf({ [ACCESS_KINDS_HEADER]: 'researchOther=researchUser', authorization: KEY })).toMatchObject({
      kind: 'researchKey',
    });
  });

  it('does not start when a listed kind’s guard cannot tell its credential', () => {
    const blind: Guard = { admit: async () => undefined };
    expect(
      () =>
        new OperationPipeline([either], { implementations: [implement(either, () => 'x')], guards: { ...GUARDS, researchUser: blind } }),
    ).toThrow('operation researchEither: the guard of access researchUser cannot tell whether its credential was sent');
  });

  it('refuses a route that accepts a kind its operation does not list', () => {
    expect(() =>
      defineOperation({
        service: 'research',
        name: 'researchNarrow',
        kind: 'query',
        summary: 'x',
        access: researchKey(),
        output: z.string(),
        rest: { method: 'GET', path: '/v1/narrow', accepts: ['researchUser'] },
      }),
    ).toThrow('operation researchNarrow: /v1/narrow accepts researchUser, not its access');
  });
});
