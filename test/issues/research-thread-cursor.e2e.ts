import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allComplete, call, fundedWorkspace, readUntil, startResearchStack } from '../support/research.js';
import type { TestStack } from '../support/stack.js';

/** The case list's cursor names a case of the caller's list, or the list refuses it (422) instead of serving an empty page. */

let stack: TestStack;
let workspace: Awaited<ReturnType<typeof fundedWorkspace>>;

beforeAll(async () => {
  stack = await startResearchStack();
  workspace = await fundedWorkspace(stack, 'cursor', 10, 'test');
});
afterAll(async () => {
  await stack?.stop();
});

describe('GET /v1/chat/threads?cursor=…', () => {
  it.each(['abc', '-1', '!!!', 'thread_unknown', Buffer.from('{"id":1}').toString('base64')])(
    '%s is a 422 naming cursor, not an empty page',
    async (cursor) => {
      const listed = await call(stack, workspace.key, 'GET', `/v1/chat/threads?cursor=${encodeURIComponent(cursor)}`);
      expect(listed.status, listed.text).toBe(422);
      expect(listed.body.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
    },
  );

  it('a case of another workspace is no cursor of this list', async () => {
    const other = await fundedWorkspace(stack, 'other-cursor', 10, 'test');
    const created = await call(stack, other.key, 'POST', '/v1/chat/threads', { message: 'An idea of theirs.' });
    expect(created.status, created.text).toBe(202);
    const listed = await call(stack, workspace.key, 'GET', `/v1/chat/threads?cursor=${created.body.thread.id}`);
    expect(listed.status, listed.text).toBe(422);
  });

  it('the nextCursor it hands out still pages', async () => {
    const created: string[] = [];
    for (const message of ['First idea.', 'Second idea.']) {
      const posted = await call(stack, workspace.key, 'POST', '/v1/chat/threads', { message });
      expect(posted.status, posted.text).toBe(202);
      created.push(posted.body.thread.id);
    }
    // The list is ordered by updatedAt, which the assistant's reply moves: page once both replies are in.
    for (const id of created) await readUntil(stack, workspace.key, id, allComplete);
    const first = await call(stack, workspace.key, 'GET', '/v1/chat/threads?limit=1');
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call(stack, workspace.key, 'GET', `/v1/chat/threads?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect([first.body.items[0].id, second.body.items[0].id].sort()).toEqual([...created].sort());
  });
});
